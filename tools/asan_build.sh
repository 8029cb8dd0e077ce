#!/usr/bin/env bash
# AddressSanitizer build of core/_C for hunting memory errors (never the default build):
#   TZ_JOBS=1 ./tools/asan_build.sh            # builds build/asan, assembles build/asan/pkg
#   ./tools/asan_build.sh pytest -q tests/core/test_serialization.py -k hostile
# With arguments, runs them under ASan: libasan preloaded (python itself is not
# instrumented), PYTHONSAFEPATH=1 (the source tree's core/ must not shadow it) and PYTHONPATH at a copy of the Python sources beside the ASan .so files.
set -euo pipefail
cd "$(dirname "$0")/.."
build_dir=${TZ_ASAN_DIR:-build/asan}
flags="-fsanitize=address -fno-omit-frame-pointer"
if [ ! -f "$build_dir/build.ninja" ]; then
  cmake -S . -B "$build_dir" -G Ninja -DTZ_INPLACE=OFF -DCMAKE_BUILD_TYPE=Debug \
    -DCMAKE_C_FLAGS="$flags" -DCMAKE_CXX_FLAGS="$flags" \
    -DCMAKE_SHARED_LINKER_FLAGS="-fsanitize=address" -DCMAKE_MODULE_LINKER_FLAGS="-fsanitize=address" \
    -Dpybind11_DIR="$(python -c 'import pybind11; print(pybind11.get_cmake_dir())')" >/dev/null
fi
cmake --build "$build_dir" --target core__C -- -j"${TZ_JOBS:-2}"
pkg="$build_dir/pkg"
rm -rf "$pkg" && mkdir -p "$pkg"
cp -r core "$pkg/"
rm -rf "$pkg/core/csrc" "$pkg/core/bindings" "$pkg"/core/*.so
find "$pkg" -name __pycache__ -prune -exec rm -rf {} +
find "$build_dir" -path "$pkg" -prune -o \( -name '_C*.so' -o -name 'libtensorzoo.so' \) -print \
  | xargs -I{} cp {} "$pkg/core/"
if [ $# -gt 0 ]; then
  PYTHONSAFEPATH=1 LD_PRELOAD="$(gcc -print-file-name=libasan.so)" ASAN_OPTIONS=detect_leaks=0:abort_on_error=1 \
    PYTHONPATH="$pkg:tests:tests/core" "$@"
fi
