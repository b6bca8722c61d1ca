// compile_c.hpp — compile a C source string for a test and get its functions.
//
// Two ways, the two loaders of the runtime: the system compiler (gcc, with
// the project's strict flags, into a shared object opened with dlopen) and
// libtcc (in memory).  The source may #include "rs_abi.h": the include path
// is the repository's runtime/ folder (tests run from the repository root).
// A CompiledC owns its dlopen handle or TCCState, and the function pointers
// it hands out live as long as it does.  Temporary files (under a mkdtemp
// folder in /tmp) are removed before the constructor returns.
#ifndef RAILSYM_TESTS_COMPILE_C_HPP
#define RAILSYM_TESTS_COMPILE_C_HPP

#include <memory>
#include <string>

#include "rs_abi.h"

namespace railsym {
namespace testsupport {

// The flags generated code must compile cleanly with.
extern const char *const kStrictCFlags;   // "-std=c99 -Wall -Wextra -Werror -O2"

class CompiledC {
public:
    enum class Via { Gcc, Tcc };
    ~CompiledC();
    CompiledC(const CompiledC &) = delete;
    CompiledC &operator=(const CompiledC &) = delete;

    // Compile `source`; on failure return nullptr and put the compiler's
    // messages in *err (when err is given).
    static std::unique_ptr<CompiledC> gcc(const std::string &source, std::string *err = nullptr,
                                          const std::string &extra_flags = "");
    static std::unique_ptr<CompiledC> tcc(const std::string &source, std::string *err = nullptr);
    static std::unique_ptr<CompiledC> compile(Via via, const std::string &source,
                                              std::string *err = nullptr);

    // A generated function by name; nullptr when it is not defined.
    rs_fn fn(const std::string &name) const;
    // Any symbol (e.g. a const pattern array); nullptr when not defined.
    const void *symbol(const std::string &name) const;
    Via via() const { return via_; }

private:
    CompiledC(Via v, void *handle) : via_(v), handle_(handle) {}
    Via via_;
    void *handle_;   // dlopen handle or TCCState*
};

// Compile `source` with gcc -c (strict flags) and return `nm` of the object
// file ("" with *err set on failure).  Lets a test see which global symbols
// a generated file defines, and in which section.
std::string gcc_object_nm(const std::string &source, std::string *err = nullptr);

// The absolute path of the runtime/ include folder.
std::string abi_include_dir();

}  // namespace testsupport
}  // namespace railsym

#endif
