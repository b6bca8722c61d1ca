// gnuplot.hpp — drawing PNG pictures with gnuplot's pngcairo terminal, for
// the commands that plot (`railsym plot`, `railsym critical-speed`).
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

}  // namespace railsym::gnuplot

#endif
