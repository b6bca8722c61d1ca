// gnuplot.hpp — drawing PNG pictures with gnuplot's pngcairo terminal, for
// the commands that plot (`railsym plot`, `railsym critical-speed`, the
// signal commands).
#ifndef RAILSYM_GNUPLOT_HPP
#define RAILSYM_GNUPLOT_HPP

#include <string>

namespace railsym::gnuplot {

// gnuplot's single-quoted string: a quote is written twice, line breaks
// become blanks.
std::string quote(const std::string &s);

// The gnuplot program: $RAILSYM_GNUPLOT, else "gnuplot" found on PATH.
// Throws cli::UserError saying how to install it when there is none.
std::string find();

// Runs `script` (a complete gnuplot program that writes `png`) with the
// program `prog`, from a temporary file, as a child process (no shell).
// Throws cli::UserError with gnuplot's own messages when it fails or writes
// no picture.
void draw(const std::string &prog, const std::string &script, const std::string &png);

// The first lines of a script that draws from a CSV file into `png`: the
// terminal every command's picture uses (pngcairo 1000x600, sans 10, text
// taken literally), the output file, comma-separated data.
std::string csv_png_header(const std::string &png);

// Draws `script` into `png` with the gnuplot find() gives and prints
// "plot: PNG".  When it cannot (no gnuplot, gnuplot failed) it says
// "PROG: warning: no plot: WHY" on stderr and returns: the picture is an
// aid, the command's result is its CSV.
void draw_or_warn(const std::string &script, const std::string &png, const char *prog);

}  // namespace railsym::gnuplot

#endif
