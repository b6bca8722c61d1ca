/*
 * version.hpp — railsym's version, in this one place.
 *
 * Plain C preprocessor so C programs (tests/e2e/test_cli.c) can include it too.
 * Bump it here; `railsym --version` prints "railsym " RAILSYM_VERSION.
 */
#ifndef RAILSYM_VERSION_HPP
#define RAILSYM_VERSION_HPP

#define RAILSYM_VERSION "0.1.0"

#endif /* RAILSYM_VERSION_HPP */
