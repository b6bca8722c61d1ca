// bench_contact_element.cpp — operation counts of the single wheelset's
// generated functions (the contact functions of docs/contact_element.md and
// the System's own), in the spirit of seed 003's Table 2, and the time the
// symbolic build takes.  Prints
//   BENCH wheelset.ops_<function> <n> ops
//   BENCH wheelset.atoms_<function> <n> atoms
// plus `contact_all` (every contact function in one, atoms shared) and
// `wheelset.build_s` (model + all functions, seconds).
#include <chrono>
#include <cstdio>

#include "codegen.hpp"
#include "model_functions.hpp"
#include "models.hpp"

using namespace railsym;

int main()
{
    auto t0 = std::chrono::steady_clock::now();
    auto sys = models::wheelset();
    std::vector<codegen::Function> fns = model_functions(*sys);
    std::vector<codegen::Function> cfns = contact_functions(*sys);
    double build_s = std::chrono::duration<double>(std::chrono::steady_clock::now() - t0).count();

    codegen::Function all{"contact_all", {}, ""};
    for (const codegen::Function &f : cfns) {
        if (f.name == "creep") continue;   // its outputs are already there
        for (const codegen::Output &o : f.outputs) all.outputs.push_back(o);
    }
    fns.insert(fns.end(), cfns.begin(), cfns.end());
    fns.push_back(all);
    for (const codegen::Function &f : fns) {
        codegen::OpCount c = codegen::count_ops(sys->store(), f);
        std::string id = codegen::c_identifier(f.name);
        for (char &ch : id)
            if (ch >= 'A' && ch <= 'Z') ch = char(ch - 'A' + 'a');
        std::printf("BENCH wheelset.ops_%s %ld ops\n", id.c_str(), c.total());
        std::printf("BENCH wheelset.atoms_%s %ld atoms\n", id.c_str(), c.atoms);
    }
    std::printf("BENCH wheelset.build_s %.3f s\n", build_s);
    return 0;
}
