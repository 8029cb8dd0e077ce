#!/usr/bin/env bash
# AddressSanitizer build of core/_C for hunting memory errors (never the default build):
#   TZ_JOBS=1 ./tools/asan_build.sh            # builds build/asan, assembles build/asan/pkg
#   ./tools/asan_build.sh pytest -q tests/core/test_serialization.py -k hostile
# With arguments, runs them under ASan: libasan preloaded (python itself is not
# instrumented), PYTHONPATH pointing at a copy of the Python sources beside the ASan .so files.
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
rsync -a --exclude '*.so' --exclude 'csrc' --exclude 'bindings' --exclude '__pycache__' core "$pkg/"
find "$build_dir" -path "$pkg" -prune -o \( -name '_C*.so' -o -name 'libtensorzoo.so' \) -print \
  | xargs -I{} cp {} "$pkg/core/"
if [ $# -gt 0 ]; then
  LD_PRELOAD="$(gcc -print-file-name=libasan.so)" ASAN_OPTIONS=detect_leaks=0:abort_on_error=1 \
    PYTHONPATH="$pkg:tests:tests/core" "$@"
fi
