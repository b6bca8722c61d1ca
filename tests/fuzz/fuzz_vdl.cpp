// fuzz_vdl.cpp — libFuzzer harness for the .vdl front end: any input must
// load or produce diagnostics, never crash, hang or trip a sanitizer.
// Build and run (bounded), seeded with the shipped models:
//   clang++ -std=c++17 -g -O1 -fsanitize=fuzzer,address,undefined \
//       $(pkg-config --cflags ginac) -I modeler -I codegen -I runtime \
//       tests/fuzz/fuzz_vdl.cpp modeler/*.cpp codegen/codegen.cpp codegen/opcount.cpp \
//       codegen/output.cpp codegen/report.cpp $(pkg-config --libs ginac) -o build/fuzz_vdl
//   build/fuzz_vdl -max_total_time=60 -timeout=10 -max_len=4096 \
//       fuzz-corpus/ vehicles/examples/ tests/vdl_errors/
// (includes resolve relative to a fake path, so they read nothing real.)
#include <cstddef>
#include <cstdint>
#include <string>

#include "system.hpp"
#include "vdl_elaborate.hpp"

extern "C" int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size) {
    std::string text(reinterpret_cast<const char *>(data), size);
    railsym::System sys;
    railsym::vdl::Sources src;
    railsym::vdl::Diagnostics diags(src);
    railsym::vdl::load_text("/nonexistent/fuzz.vdl", text, sys, diags);
    (void)diags.format();
    return 0;
}
