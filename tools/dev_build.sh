#!/usr/bin/env bash
# Incremental developer build: compiles core/_C*.so in place so `PYTHONPATH=. pytest` uses it.
set -euo pipefail
cd "$(dirname "$0")/.."
build_dir=${TZ_BUILD_DIR:-build/dev}
if [ ! -f "$build_dir/build.ninja" ]; then
  cmake -S . -B "$build_dir" -G Ninja -DTZ_INPLACE=ON -DCMAKE_BUILD_TYPE=Release \
    -Dpybind11_DIR="$(python -c 'import pybind11; print(pybind11.get_cmake_dir())')" >/dev/null
fi
cmake --build "$build_dir" -- -j"${TZ_JOBS:-2}"
