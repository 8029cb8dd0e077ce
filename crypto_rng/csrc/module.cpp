// The `crypto_rng._C` extension module: torchcsprng 0.2's surface on tensorzoo.
#include <pybind11/pybind11.h>
#include <pybind11/stl.h>

#include "aes.h"
#include "bindings/python_api.h"
#include "cipher.h"
#include "generators.h"
#include "tensor/errors.h"

namespace py = pybind11;

namespace {

std::shared_ptr<crypto_rng::AesGenerator> random_device_generator(const std::optional<std::string>& token) {
  return std::make_shared<crypto_rng::RandomDeviceGenerator>(token);
}

// std::mt19937's default seed when none is given.
std::shared_ptr<crypto_rng::AesGenerator> mt19937_generator(const std::optional<uint64_t>& seed) {
  return std::make_shared<crypto_rng::MT19937Generator>(seed.value_or(5489));
}

std::string repr(const crypto_rng::AesGenerator& g) {
  return "<crypto_rng AES-128-CTR generator, keys from " + g.engine_name() + ">";
}

py::list implementations() {
  py::list out;
  for (const auto* impl : crypto_rng::aes::available()) out.append(impl->name);
  return out;
}

}  // namespace

PYBIND11_MODULE(_C, m) {
  m.doc() = "crypto_rng: AES-128-CTR generators and AES-128 encrypt/decrypt (torchcsprng 0.2)";
  // Our generators extend core's engine class, which core._C registers.
  py::module_::import("core._C");
  py::register_exception_translator([](std::exception_ptr p) {
    try {
      if (p) std::rethrow_exception(p);
    } catch (const tz::Error&) {
      tz::py::python_api().set_error_from_current_exception();
    }
  });

  py::class_<crypto_rng::AesGenerator, tz::Generator, std::shared_ptr<crypto_rng::AesGenerator>>(
      m, "AesCtrGenerator",
      "An AES-128-CTR generator (torchcsprng's): each sampling call encrypts counters under a fresh "
      "key drawn from the generator's engine. Made by create_random_device_generator() and "
      "create_mt19937_generator(); usable as `generator=` in core's random functions.")
      .def("__repr__", &repr)
      .def(
          "_next_key",
          [](crypto_rng::AesGenerator& g) {
            uint8_t key[16];
            {
              tz::GeneratorLock lock(g);
              g.next_key(key);
            }
            return py::bytes(reinterpret_cast<const char*>(key), sizeof(key));
          },
          "Draws the key the next sampling call would use (for tests).");

  m.def("supports_cuda", [] { return false; }, "Whether crypto_rng was built with CUDA: never.");
  m.def("create_random_device_generator", &random_device_generator, py::arg("token") = py::none(),
        "A non-deterministic generator whose keys come from the OS's CSPRNG (getrandom), or from the "
        "std::random_device source a token names (\"/dev/urandom\", \"rdrand\", ...). Not seedable.");
  m.def("create_mt19937_generator", &mt19937_generator, py::arg("seed") = py::none(),
        "A deterministic (not cryptographically secure) generator whose keys come from std::mt19937 "
        "seeded with `seed` (its low 32 bits; 5489 when None).");
  m.def("encrypt", &crypto_rng::encrypt, py::arg("input"), py::arg("output"), py::arg("key"), py::arg("cipher"),
        py::arg("mode"), py::call_guard<py::gil_scoped_release>(),
        "Encrypts the bytes of `input` into `output` with AES-128 (cipher=\"aes128\") in mode \"ecb\" or "
        "\"ctr\"; returns output. The input is zero-padded to 16-byte blocks; output must hold exactly "
        "the padded size. key: any tensor of 16 bytes.");
  m.def("decrypt", &crypto_rng::decrypt, py::arg("input"), py::arg("output"), py::arg("key"), py::arg("cipher"),
        py::arg("mode"), py::call_guard<py::gil_scoped_release>(),
        "Decrypts whole 16-byte blocks of `input` into `output` (which may be up to 15 bytes shorter, "
        "dropping the padding, or be `input` itself); returns output.");

  // Which AES implementation runs (CRYPTO_RNG_AES / CRYPTO_RNG_FORCE_PORTABLE choose it at start).
  m.def("_aes_implementation", [] { return std::string(crypto_rng::aes::active().name); });
  m.def("_aes_implementations", &implementations);
  m.def("_set_aes_implementation", &crypto_rng::aes::set_active, py::arg("name"));
}
