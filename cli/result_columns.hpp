// result_columns.hpp — columns of a results CSV (time first, as `railsym run`
// writes it) read as numbers, for the analysis commands (`railsym psd`,
// `railsym comfort`): the named columns and the sampling rate of the time
// column, which must be uniform.
#ifndef RAILSYM_RESULT_COLUMNS_HPP
#define RAILSYM_RESULT_COLUMNS_HPP

#include <string>
#include <vector>

namespace railsym {

struct ResultColumns {
    std::vector<std::vector<double>> values;   // one per requested name, in order
    double fs = 0;                             // samples per unit of the first column (1/s)
    std::string first;                         // the first column's name ("time")
    std::vector<std::string> units;            // per requested name, from NAME.units.csv; "" unknown
};

// Reads `names` from `csv`.  Throws cli::UserError naming the file and line
// for an unknown column (with the closest name), a field that is not a finite
// number, a row of the wrong length, fewer than 8 rows, or a first column
// that is not uniformly spaced (relative deviation over 1e-6).  The units
// come from the units file `railsym run` writes beside the CSV
// (docs/results.md) when it lists the same columns.
ResultColumns read_result_columns(const std::string &csv, const std::vector<std::string> &names);

// The column names of `csv`'s header row (to find columns by pattern, as
// `railsym assess` finds the contacts' Y and Q).  Throws cli::UserError for
// a file that cannot be read or is empty.
std::vector<std::string> read_result_header(const std::string &csv);

// One term of a signed sum of columns.
struct ColumnTerm {
    double sign;          // +1 or -1
    std::string column;
};

// EXPR as a signed sum of columns: EXPR itself when the header has it (a
// name holding '+' or '-' still works), else its terms split at '+' and '-'
// (`ws1_right.Y-ws1_left.Y`: a wheelset's guiding-force sum from its
// wheels' Y, each pointing to the track centre).  An empty term throws
// cli::UsageError naming OPTION; unknown columns are left for
// read_result_columns to refuse.
std::vector<ColumnTerm> column_sum_terms(const std::string &expr, const std::vector<std::string> &header,
                                         const std::string &option);

// A short, file-system-safe name for a column or a signed sum of columns,
// for output files (`railsym track-shift`'s default prefix): one column, its
// name; a sum, the longest common start of its columns' names cut back to
// the last '.' or '_' before the names part (`front.ws1.right.Y-front.ws1.
// left.Y`: front.ws1; `ws1_right.Y-ws1_left.Y`: ws1), or, when they share
// none, the columns joined by _plus_ and _minus_ (`R.Y-L.Y`: R.Y_minus_L.Y).
// Then every character but letters, digits, '.', '_' and '-' becomes '_', a
// leading '.' or '-' too (never a hidden file or an option), and a name
// over 64 characters keeps its first 47 and a 16-digit hash of the whole.
std::string column_file_name(const std::vector<ColumnTerm> &terms);

}  // namespace railsym

#endif
