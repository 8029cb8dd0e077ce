#include "bindings/py_generator.h"

#include <cstring>

#include <pybind11/stl.h>

#include "bindings/py_tensor.h"
#include "ops/conversion.h"

namespace tz::py {

namespace pyb = pybind11;

namespace {

// A generator state as a new uint8 tensor (what torch.Generator.get_state returns).
pyb::object state_tensor(const std::vector<uint8_t>& s) {
  Tensor t = Tensor::empty({static_cast<int64_t>(s.size())}, DType::UInt8);
  if (!s.empty()) std::memcpy(t.raw_data(), s.data(), s.size());
  return pyb::reinterpret_steal<pyb::object>(wrap(t));
}

// A state given as a uint8 tensor, bytes, bytearray or a sequence of ints.
std::vector<uint8_t> state_bytes(pyb::handle obj) {
  if (is_tensor(obj.ptr())) {
    const Tensor& t = unwrap(obj.ptr());
    TZ_CHECK(t.dtype() == DType::UInt8, Type, "set_state(): expected a torch.ByteTensor-like uint8 tensor, but got ",
             dtype_name(t.dtype()));
    Tensor c = contiguous(t);
    const uint8_t* p = c.data<uint8_t>();
    return std::vector<uint8_t>(p, p + c.numel());
  }
  if (pyb::isinstance<pyb::bytes>(obj) || pyb::isinstance<pyb::bytearray>(obj)) {
    std::string s = pyb::isinstance<pyb::bytes>(obj) ? std::string(pyb::reinterpret_borrow<pyb::bytes>(obj))
                                                     : std::string(pyb::reinterpret_borrow<pyb::bytearray>(obj));
    return std::vector<uint8_t>(s.begin(), s.end());
  }
  return obj.cast<std::vector<uint8_t>>();
}

// PyTorch accepts seeds in [-2^63, 2^64); negative ones wrap to uint64.
uint64_t seed_value(pyb::int_ seed) {
  int overflow = 0;
  long long v = PyLong_AsLongLongAndOverflow(seed.ptr(), &overflow);
  if (overflow == 0) return static_cast<uint64_t>(v);
  if (overflow > 0) {
    unsigned long long u = PyLong_AsUnsignedLongLong(seed.ptr());
    if (!PyErr_Occurred()) return u;
    PyErr_Clear();
  }
  throw pyb::value_error("manual_seed(): seed must be in [-0x8000_0000_0000_0000, 0xffff_ffff_ffff_ffff], "
                         "got " + std::string(pyb::str(seed)));
}

// Lets Python code implement an engine by overriding random() and the seed/state methods.
class PyEngine : public Generator {
 public:
  uint32_t random() override { PYBIND11_OVERRIDE_PURE(uint32_t, Generator, random); }
  uint64_t random64() override { PYBIND11_OVERRIDE(uint64_t, Generator, random64); }
  void set_seed(uint64_t seed) override { PYBIND11_OVERRIDE_PURE(void, Generator, set_seed, seed); }
  uint64_t initial_seed() const override { PYBIND11_OVERRIDE_PURE(uint64_t, Generator, initial_seed); }
  // Python engines return or take states like torch does: uint8 tensors (or bytes).
  std::vector<uint8_t> get_state() const override {
    pyb::gil_scoped_acquire gil;
    pyb::function fn = pyb::get_override(static_cast<const Generator*>(this), "get_state");
    if (!fn) pyb::pybind11_fail("Tried to call pure virtual function \"Generator::get_state\"");
    return state_bytes(fn());
  }
  void set_state(const std::vector<uint8_t>& s) override {
    pyb::gil_scoped_acquire gil;
    pyb::function fn = pyb::get_override(static_cast<const Generator*>(this), "set_state");
    if (!fn) pyb::pybind11_fail("Tried to call pure virtual function \"Generator::set_state\"");
    fn(state_tensor(s));
  }
  std::string engine_name() const override { PYBIND11_OVERRIDE(std::string, Generator, engine_name); }

  // Draws run Python code, which can hand the GIL to another thread that then waits for
  // this generator: wait for the mutex without the GIL.
  void lock() override {
    if (mutex.try_lock()) return;
    if (PyGILState_Check()) {
      pyb::gil_scoped_release nogil;
      mutex.lock();
    } else {
      mutex.lock();
    }
  }
};

}  // namespace

GeneratorPtr generator_from_object(PyObject* obj) {
  pyb::detail::copyable_holder_caster<Generator, GeneratorPtr> caster;
  if (!caster.load(pyb::handle(obj), false)) return nullptr;
  return static_cast<GeneratorPtr>(caster);
}

void init_generator(pyb::module_& m) {
  // The engine interface, for other packages and Python subclasses.
  pyb::class_<Generator, PyEngine, GeneratorPtr>(m, "_GeneratorEngine")
      .def(pyb::init<>())
      .def("random", &Generator::random)
      .def("random64", &Generator::random64)
      .def("set_seed", &Generator::set_seed)
      .def("initial_seed", &Generator::initial_seed)
      .def("engine_name", &Generator::engine_name)
      .def("manual_seed", [](GeneratorPtr g, pyb::int_ seed) {
        uint64_t s = seed_value(seed);
        GeneratorLock lock(*g);
        g->manual_seed(s);
        return g;
      })
      .def("seed", [](Generator& g) { GeneratorLock lock(g); return g.seed(); })
      .def("get_state", [](Generator& g) {
        std::vector<uint8_t> s;
        {
          GeneratorLock lock(g);
          s = g.get_state();
        }
        return state_tensor(s);
      })
      .def("set_state", [](GeneratorPtr g, pyb::handle state) {
        std::vector<uint8_t> s = state_bytes(state);
        GeneratorLock lock(*g);
        g->set_state(s);
        return g;
      })
      .def_property_readonly("device", [](const Generator&) { return "cpu"; });

  pyb::class_<CPUGenerator, Generator, std::shared_ptr<CPUGenerator>>(m, "_CPUGenerator")
      .def(pyb::init([](pyb::object seed) {
             auto g = std::make_shared<CPUGenerator>();
             if (!seed.is_none()) g->manual_seed(seed_value(seed.cast<pyb::int_>()));
             return g;
           }),
           pyb::arg("seed") = pyb::none());

  m.def("default_generator", [] { return default_generator(); });
}

}  // namespace tz::py
