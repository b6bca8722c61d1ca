// codegen.hpp — atomized function sets to C99 source, and their op counts.
//
// A Function is a named list of Outputs (scalars, vectors, dense matrices,
// sparse matrices with a fixed compressed-column pattern), each a list of
// atoms of one Store.  generate_c() writes one C99 function per Function,
// with the ABI of abi/rs_abi.h:
//
//     int MODEL_FN(const double *const *in, double *const *out);
//
// It evaluates exactly the atoms the outputs need, each once, as locals in
// ascending atom id (a topological order of the store), so the text depends
// only on how the store was built: byte-identical from run to run.  The
// generated code has no globals; sparse outputs are written in the order of
// their pattern, which the model's descriptor carries (descriptor.hpp).
//
// count_ops() counts the same atoms: one elementary operation per atom
// (Add/Sub/Neg are adds, Mul muls, Div divs, Pow and functions calls by
// name).  See docs/atoms.md for the conventions.
//
// Errors: names that collide after sanitizing, or outputs whose sizes do not
// match their shape, throw std::invalid_argument (a caller's mistake); an
// atom id that does not exist in the store, or an atom whose operands are
// not older than itself, throws std::logic_error (a broken invariant).
#ifndef RAILSYM_CODEGEN_HPP
#define RAILSYM_CODEGEN_HPP

#include <map>
#include <string>
#include <utility>
#include <vector>

#include "atoms.hpp"

namespace railsym {
namespace codegen {

enum class Shape { Scalar, Vector, Dense, Sparse };
const char *shape_name(Shape s);   // "scalar", "vector", "dense", "sparse"

struct Output {
    std::string name;
    Shape shape = Shape::Scalar;
    int rows = 1, cols = 1;
    // Scalar: 1 value; Vector: rows; Dense: rows*cols, row-major;
    // Sparse: the nnz values in pattern (compressed-column) order.
    std::vector<Ex> values;
    // Sparse only: compressed sparse columns, KLU's int format.
    // colptr has cols+1 entries, rowidx has nnz entries, rows ascending
    // inside each column.
    std::vector<int> colptr, rowidx;

    static Output scalar(std::string name, Ex v);
    static Output vector(std::string name, std::vector<Ex> v);
    static Output dense(std::string name, int rows, int cols, std::vector<Ex> row_major);
    // Keeps the structurally non-zero entries (every entry that is not the
    // number 0), in compressed-column order.
    static Output sparse(std::string name, int rows, int cols, const std::vector<Ex> &row_major);
    int nnz() const { return (int)values.size(); }
};

struct Function {
    std::string name;
    std::vector<Output> outputs;
    std::string doc;   // one line or more, copied into the header comment
    // Atoms read from a cache instead of computed (codegen/stepfn.hpp,
    // "step_cached"): atom cached[i] is in[RS_IN_CACHE][i]; the atoms only
    // they need are not evaluated.
    std::vector<int> cached = {};
};

struct OpCount {
    long adds = 0, muls = 0, divs = 0;   // + and − (and negation); ×; ÷
    std::map<std::string, long> calls;   // function calls by C name (sin, pow, ...)
    long atoms = 0;                      // operation nodes evaluated
    long total() const;                  // adds + muls + divs + all calls
};

// The operations a generated function evaluates: the atoms reachable from
// its outputs, each once.
OpCount count_ops(const Store &st, const Function &f);

struct GeneratedCode {
    std::string header, source;
};

// One C99 header and source for the functions, prefixed by the model name
// (sanitized to a C identifier).  The header has an include guard and the
// prototypes, each with a comment naming its outputs.
GeneratedCode generate_c(const Store &st, const std::string &model_name,
                         const std::vector<Function> &fns);

// The C identifier of a name: characters outside [A-Za-z0-9_] become '_',
// and a leading digit (or an empty name) gets a leading "rs_".
std::string c_identifier(const std::string &name);
// "MODEL_FN", the C name of one generated function.
std::string c_function_name(const std::string &model_name, const std::string &fn_name);

// The op-count report: a readable table (in the form of seed 003's Table 2,
// with the operations broken down) and JSON.  Rows keep the given order.
std::string ops_table(const std::vector<std::pair<std::string, OpCount>> &rows);
std::string ops_json(const std::vector<std::pair<std::string, OpCount>> &rows);

}  // namespace codegen
}  // namespace railsym

#endif
