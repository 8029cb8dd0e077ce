#include "bindings/py_generator.h"

#include <pybind11/stl.h>

namespace tz::py {

namespace pyb = pybind11;

namespace {

// Lets Python code implement an engine by overriding random() and the seed methods.
class PyEngine : public Generator {
 public:
  uint32_t random() override { PYBIND11_OVERRIDE_PURE(uint32_t, Generator, random); }
  uint64_t random64() override { PYBIND11_OVERRIDE(uint64_t, Generator, random64); }
  void set_seed(uint64_t seed) override { PYBIND11_OVERRIDE_PURE(void, Generator, set_seed, seed); }
  uint64_t initial_seed() const override { PYBIND11_OVERRIDE_PURE(uint64_t, Generator, initial_seed); }
  std::vector<uint8_t> get_state() const override {
    PYBIND11_OVERRIDE_PURE(std::vector<uint8_t>, Generator, get_state);
  }
  void set_state(const std::vector<uint8_t>& s) override {
    PYBIND11_OVERRIDE_PURE(void, Generator, set_state, s);
  }
  std::string engine_name() const override { PYBIND11_OVERRIDE(std::string, Generator, engine_name); }
};

pyb::bytes state_bytes(const Generator& g) {
  std::vector<uint8_t> s = g.get_state();
  return pyb::bytes(reinterpret_cast<const char*>(s.data()), s.size());
}

void set_state_bytes(Generator& g, pyb::bytes b) {
  std::string s = b;
  std::lock_guard<std::mutex> lock(g.mutex);
  g.set_state(std::vector<uint8_t>(s.begin(), s.end()));
}

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
        // Negative seeds wrap like PyTorch's (uint64 two's complement).
        uint64_t s = PyLong_AsUnsignedLongLongMask(seed.ptr());
        std::lock_guard<std::mutex> lock(g->mutex);
        g->set_seed(s);
        return g;
      })
      .def("seed", [](Generator& g) { std::lock_guard<std::mutex> lock(g.mutex); return g.seed(); })
      .def("get_state", [](const Generator& g) { return state_bytes(g); })
      .def("set_state", [](GeneratorPtr g, pyb::bytes b) { set_state_bytes(*g, b); return g; });

  pyb::class_<CPUGenerator, Generator, std::shared_ptr<CPUGenerator>>(m, "_CPUGenerator")
      .def(pyb::init([](pyb::object seed) {
             auto g = std::make_shared<CPUGenerator>();
             if (!seed.is_none()) g->set_seed(PyLong_AsUnsignedLongLongMask(seed.ptr()));
             return g;
           }),
           pyb::arg("seed") = pyb::none());

  m.def("default_generator", [] { return default_generator(); });
}

}  // namespace tz::py
