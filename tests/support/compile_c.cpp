// compile_c.cpp — see compile_c.hpp.
#include "compile_c.hpp"

#include <dlfcn.h>
#include <libtcc.h>
#include <stdlib.h>
#include <sys/wait.h>
#include <unistd.h>

#include <cstdint>
#include <cstdio>
#include <fstream>
#include <sstream>
#include <vector>

namespace railsym {
namespace testsupport {

const char *const kStrictCFlags = "-std=c99 -Wall -Wextra -Werror -O2";

namespace {

// A mkdtemp folder that removes the files it was asked to hold, then itself.
class TempDir {
public:
    TempDir() {
        char tmpl[] = "/tmp/railsym_cc_XXXXXX";
        if (mkdtemp(tmpl)) path_ = tmpl;
    }
    ~TempDir() {
        for (const std::string &f : files_) unlink(f.c_str());
        if (!path_.empty()) rmdir(path_.c_str());
    }
    bool ok() const { return !path_.empty(); }
    std::string file(const std::string &name) {
        files_.push_back(path_ + "/" + name);
        return files_.back();
    }

private:
    std::string path_;
    std::vector<std::string> files_;
};

bool write_file(const std::string &path, const std::string &text) {
    std::ofstream f(path, std::ios::binary);
    f << text;
    return bool(f);
}

std::string read_file(const std::string &path) {
    std::ifstream f(path, std::ios::binary);
    std::ostringstream ss;
    ss << f.rdbuf();
    return ss.str();
}

// Runs a shell command; true when it exits with status 0.
bool run(const std::string &cmd) {
    int rc = std::system(cmd.c_str());
    return rc != -1 && WIFEXITED(rc) && WEXITSTATUS(rc) == 0;
}

void set_err(std::string *err, const std::string &msg) {
    if (err) *err = msg;
}

void tcc_error_to_string(void *opaque, const char *msg) {
    std::string *s = static_cast<std::string *>(opaque);
    *s += msg;
    *s += "\n";
}

}  // namespace

std::string abi_include_dir() {
    char *p = realpath("abi", nullptr);
    if (!p) return "abi";
    std::string s = p;
    free(p);
    return s;
}

std::unique_ptr<CompiledC> CompiledC::gcc(const std::string &source, std::string *err,
                                          const std::string &extra_flags) {
    TempDir dir;
    if (!dir.ok()) {
        set_err(err, "mkdtemp failed");
        return nullptr;
    }
    const std::string src = dir.file("gen.c"), so = dir.file("gen.so"), log = dir.file("cc.log");
    if (!write_file(src, source)) {
        set_err(err, "cannot write " + src);
        return nullptr;
    }
    const std::string cmd = std::string("gcc ") + kStrictCFlags + " -shared -fPIC " + extra_flags +
                            " -I'" + abi_include_dir() + "' '" + src + "' -o '" + so + "' -lm > '" +
                            log + "' 2>&1";
    if (!run(cmd)) {
        set_err(err, "gcc failed:\n" + read_file(log));
        return nullptr;
    }
    // The mapping outlives the file, so the folder can go right away.
    void *h = dlopen(so.c_str(), RTLD_NOW | RTLD_LOCAL);
    if (!h) {
        const char *e = dlerror();
        set_err(err, std::string("dlopen failed: ") + (e ? e : "?"));
        return nullptr;
    }
    return std::unique_ptr<CompiledC>(new CompiledC(Via::Gcc, h));
}

std::unique_ptr<CompiledC> CompiledC::tcc(const std::string &source, std::string *err) {
    std::string msgs;
    TCCState *s = tcc_new();
    if (!s) {
        set_err(err, "tcc_new failed");
        return nullptr;
    }
    tcc_set_error_func(s, &msgs, tcc_error_to_string);
    const std::string inc = abi_include_dir();
    bool ok = tcc_set_output_type(s, TCC_OUTPUT_MEMORY) == 0;
    ok = ok && tcc_add_include_path(s, inc.c_str()) == 0;
    ok = ok && tcc_add_library(s, "m") == 0;
    ok = ok && tcc_compile_string(s, source.c_str()) == 0;
    // libtcc 0.9.27 takes a second argument; newer versions dropped it.
    ok = ok && tcc_relocate(s, TCC_RELOCATE_AUTO) >= 0;
    if (!ok) {
        set_err(err, "libtcc failed:\n" + msgs);
        tcc_delete(s);
        return nullptr;
    }
    return std::unique_ptr<CompiledC>(new CompiledC(Via::Tcc, s));
}

std::unique_ptr<CompiledC> CompiledC::compile(Via via, const std::string &source, std::string *err) {
    return via == Via::Gcc ? gcc(source, err) : tcc(source, err);
}

CompiledC::~CompiledC() {
    if (via_ == Via::Gcc)
        dlclose(handle_);
    else
        tcc_delete(static_cast<TCCState *>(handle_));
}

const void *CompiledC::symbol(const std::string &name) const {
    if (via_ == Via::Gcc) return dlsym(handle_, name.c_str());
    return tcc_get_symbol(static_cast<TCCState *>(handle_), name.c_str());
}

rs_fn CompiledC::fn(const std::string &name) const {
    // POSIX guarantees object and function pointers convert; go through an
    // integer so that -Wpedantic-style warnings stay quiet.
    return reinterpret_cast<rs_fn>(reinterpret_cast<uintptr_t>(symbol(name)));
}

std::string gcc_object_nm(const std::string &source, std::string *err) {
    TempDir dir;
    if (!dir.ok()) {
        set_err(err, "mkdtemp failed");
        return "";
    }
    const std::string src = dir.file("gen.c"), obj = dir.file("gen.o"), log = dir.file("cc.log"),
                      nm = dir.file("nm.txt");
    if (!write_file(src, source)) {
        set_err(err, "cannot write " + src);
        return "";
    }
    const std::string cmd = std::string("gcc ") + kStrictCFlags + " -c -I'" + abi_include_dir() +
                            "' '" + src + "' -o '" + obj + "' > '" + log + "' 2>&1";
    if (!run(cmd)) {
        set_err(err, "gcc failed:\n" + read_file(log));
        return "";
    }
    if (!run("nm '" + obj + "' > '" + nm + "' 2> '" + log + "'")) {
        set_err(err, "nm failed:\n" + read_file(log));
        return "";
    }
    return read_file(nm);
}

}  // namespace testsupport
}  // namespace railsym
