// output.cpp — building and checking the named outputs of a Function, and
// the traversal that finds the atoms they need.
#include <stdexcept>

#include "codegen_impl.hpp"

namespace railsym {
namespace codegen {

const char *shape_name(Shape s) {
    switch (s) {
    case Shape::Scalar: return "scalar";
    case Shape::Vector: return "vector";
    case Shape::Dense: return "dense";
    case Shape::Sparse: return "sparse";
    }
    return "?";
}

Output Output::scalar(std::string name, Ex v) {
    Output o;
    o.name = std::move(name);
    o.shape = Shape::Scalar;
    o.values.push_back(v);
    return o;
}

Output Output::vector(std::string name, std::vector<Ex> v) {
    Output o;
    o.name = std::move(name);
    o.shape = Shape::Vector;
    o.rows = (int)v.size();
    o.cols = 1;
    o.values = std::move(v);
    return o;
}

// A rows × cols output given as row-major values: the count must match.
static void check_size(const std::string &name, const char *shape, int rows, int cols, size_t n) {
    if (rows < 0 || cols < 0 || (size_t)rows * (size_t)cols != n)
        throw std::invalid_argument("output " + name + ": " + shape + " " + std::to_string(rows) + "x" +
                                    std::to_string(cols) + " needs " + std::to_string((long)rows * cols) +
                                    " values, got " + std::to_string(n));
}

Output Output::dense(std::string name, int rows, int cols, std::vector<Ex> row_major) {
    check_size(name, "dense", rows, cols, row_major.size());
    Output o;
    o.name = std::move(name);
    o.shape = Shape::Dense;
    o.rows = rows;
    o.cols = cols;
    o.values = std::move(row_major);
    return o;
}

Output Output::sparse(std::string name, int rows, int cols, const std::vector<Ex> &row_major) {
    check_size(name, "sparse", rows, cols, row_major.size());
    Output o;
    o.name = std::move(name);
    o.shape = Shape::Sparse;
    o.rows = rows;
    o.cols = cols;
    o.colptr.push_back(0);
    // Column by column, rows ascending: the order KLU expects.
    for (int j = 0; j < cols; ++j) {
        for (int i = 0; i < rows; ++i) {
            const Ex &e = row_major[(size_t)i * cols + j];
            if (e.valid() && e.is_zero()) continue;   // structurally zero
            o.rowidx.push_back(i);
            o.values.push_back(e);
        }
        o.colptr.push_back((int)o.values.size());
    }
    return o;
}

long OpCount::total() const {
    long n = adds + muls + divs;
    for (const auto &c : calls) n += c.second;
    return n;
}

namespace detail {

bool is_binary(Op op) {
    switch (op) {
    case Op::Add: case Op::Sub: case Op::Mul: case Op::Div: case Op::Pow: case Op::Atan2:
        return true;
    default:
        return false;
    }
}

const char *c_call_name(Op op) {
    switch (op) {
    case Op::Pow: return "pow";
    case Op::Sin: return "sin";
    case Op::Cos: return "cos";
    case Op::Tan: return "tan";
    case Op::Atan2: return "atan2";
    case Op::Sqrt: return "sqrt";
    case Op::Exp: return "exp";
    case Op::Log: return "log";
    case Op::Abs: return "fabs";
    case Op::Step: return "step";   // emitted as a comparison (codegen.cpp), counted as a call
    default: return nullptr;
    }
}

void check_output_shape(const Output &o, const std::string &fn_name) {
    const std::string where = "function " + fn_name + ", output " + o.name + ": ";
    size_t want = 0;
    switch (o.shape) {
    case Shape::Scalar:
        if (o.rows != 1 || o.cols != 1) throw std::invalid_argument(where + "a scalar is 1x1");
        want = 1;
        break;
    case Shape::Vector:
        if (o.rows < 0 || o.cols != 1) throw std::invalid_argument(where + "a vector is rows x 1");
        want = (size_t)o.rows;
        break;
    case Shape::Dense:
        if (o.rows < 0 || o.cols < 0) throw std::invalid_argument(where + "negative size");
        want = (size_t)o.rows * (size_t)o.cols;
        break;
    case Shape::Sparse: {
        if (o.rows < 0 || o.cols < 0) throw std::invalid_argument(where + "negative size");
        if (o.colptr.size() != (size_t)o.cols + 1 || o.colptr[0] != 0)
            throw std::invalid_argument(where + "colptr must have cols+1 entries starting at 0");
        for (int j = 0; j < o.cols; ++j) {
            if (o.colptr[j + 1] < o.colptr[j])
                throw std::invalid_argument(where + "colptr must not decrease");
            for (int k = o.colptr[j]; k < o.colptr[j + 1]; ++k) {
                if ((size_t)k >= o.rowidx.size() || o.rowidx[k] < 0 || o.rowidx[k] >= o.rows ||
                    (k > o.colptr[j] && o.rowidx[k] <= o.rowidx[k - 1]))
                    throw std::invalid_argument(where +
                                                "row indices must be in range and ascending per column");
            }
        }
        want = (size_t)o.colptr[o.cols];
        if (o.rowidx.size() != want)
            throw std::invalid_argument(where + "rowidx must have colptr[cols] entries");
        break;
    }
    }
    if (o.values.size() != want)
        throw std::invalid_argument(where + "expected " + std::to_string(want) + " values, got " +
                                    std::to_string(o.values.size()));
}

std::vector<int> needed_nodes(const Store &st, const Function &f) {
    const int n = st.size();
    int top = -1;
    for (const Output &o : f.outputs) {
        check_output_shape(o, f.name);
        for (size_t k = 0; k < o.values.size(); ++k) {
            const Ex &e = o.values[k];
            if (e.store() != &st || e.id() < 0 || e.id() >= n)
                throw std::logic_error("codegen: function " + f.name + ", output " + o.name +
                                       "[" + std::to_string(k) + "] references atom id " +
                                       std::to_string(e.id()) +
                                       (e.store() != &st ? " of another store" : "") +
                                       " that does not exist (store size " + std::to_string(n) +
                                       ")");
            if (e.id() > top) top = e.id();
        }
    }
    std::vector<char> mark((size_t)(top + 1), 0), cut((size_t)(top + 1), 0);
    for (const Output &o : f.outputs)
        for (const Ex &e : o.values) mark[(size_t)e.id()] = 1;
    for (int id : f.cached)   // read from the cache: operands not needed
        if (id >= 0 && id <= top) cut[(size_t)id] = 1;
    // Operands are always older than their atom, so one descending sweep
    // marks everything reachable; checking that here makes it safe.
    for (int id = top; id >= 0; --id) {
        if (!mark[(size_t)id] || cut[(size_t)id]) continue;
        const Node &nd = st.node(id);
        if (is_leaf(nd.op)) continue;
        const int ops[2] = {nd.a, is_binary(nd.op) ? nd.b : -1};
        const int nops = is_binary(nd.op) ? 2 : 1;
        for (int k = 0; k < nops; ++k) {
            if (ops[k] < 0 || ops[k] >= id)
                throw std::logic_error("codegen: atom " + std::to_string(id) + " (" +
                                       op_name(nd.op) + ") has operand id " +
                                       std::to_string(ops[k]) +
                                       ", not an older atom: store invariant broken");
            mark[(size_t)ops[k]] = 1;
        }
        if (nd.op == Op::Pow && st.node(nd.b).op != Op::Num)
            throw std::logic_error("codegen: atom " + std::to_string(id) +
                                   " is a power whose exponent is not a number");
    }
    std::vector<int> out;
    for (int id = 0; id <= top; ++id)
        if (mark[(size_t)id]) out.push_back(id);
    return out;
}

}  // namespace detail
}  // namespace codegen
}  // namespace railsym
