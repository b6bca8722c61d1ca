/*
 * fuzz_inputs.c — libFuzzer harness for the runtime's readers of user
 * files: scenarios, track files, profile files and train files.  The first
 * byte picks the reader, the rest is the file's text.  A reader must
 * accept the text or reject it with a "file:line: message", never crash,
 * read out of bounds, leak or hit undefined behaviour (the harness is
 * built with ASan and UBSan).  `make test` runs it after the .vdl harness
 * (scripts/fuzz.sh), seeded with the shipped files of each kind.
 *
 * Paths named inside the text (input tables, track tables, a train's
 * compiled models) resolve against /nonexistent, so the fuzzer exercises
 * the messages for missing files rather than loading real ones.
 */
#include <stddef.h>
#include <stdint.h>
#include <stdlib.h>
#include <string.h>

#include "rs_profile.h"
#include "rs_scenario.h"
#include "rs_track.h"
#include "rs_train_file.h"

enum { READER_SCENARIO, READER_TRACK, READER_PROFILE, READER_TRAIN, READERS };

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size);

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
    if (size < 1)
        return 0;
    const int reader = data[0] % READERS;
    const size_t n = size - 1;
    /* The readers take the bytes and their length: no NUL is added, so one
     * that read past the length (or stopped at a NUL) would show. */
    const char *text = (const char *)data + 1;
    char err[1024] = "";
    switch (reader) {
    case READER_SCENARIO: {
        rs_scenario s;
        rs_scenario_init(&s);
        if (rs_scenario_parse(text, n, "/nonexistent/fuzz.scn", &s, err, sizeof err) != RS_OK && !err[0])
            abort();   /* a rejection without a message */
        rs_scenario_free(&s);
        break;
    }
    case READER_TRACK: {
        rs_track t;
        if (rs_track_parse(&t, text, n, "fuzz.trk", "/nonexistent", err, sizeof err) != RS_OK && !err[0])
            abort();
        rs_track_free(&t);
        break;
    }
    case READER_PROFILE: {
        rs_profile p;
        if (rs_profile_parse(&p, text, n, "fuzz.prf", err, sizeof err) != RS_OK && !err[0])
            abort();
        rs_profile_free(&p);
        break;
    }
    default: {
        /* rs_train_spec_parse still reads a C string (it takes no length) */
        char *copy = malloc(n + 1);
        if (!copy)
            return 0;
        memcpy(copy, text, n);
        copy[n] = '\0';
        rs_train_spec *spec = NULL;
        if (rs_train_spec_parse(copy, "/nonexistent/fuzz.train", &spec, err, sizeof err) != RS_OK && !err[0])
            abort();
        rs_train_spec_free(&spec);
        free(copy);
        break;
    }
    }
    return 0;
}
