/*
 * rs_sweep_mpi.c — coordinator and workers of a sweep under MPI.  See
 * rs_sweep_mpi.h.
 *
 * Messages (MPI_BYTE, one per transfer; all ranks are assumed to share one
 * byte order and double format, as every rank runs the same binary):
 *   TAG_TASK    0 -> w   int32 variant, then nvars doubles (its values)
 *   TAG_STOP    0 -> w   empty: no more work
 *   TAG_RESULT  w -> 0   result_head, then the message bytes, then the
 *                        run's log lines (rs_variant_result.events), then
 *                        the CSV bytes (what the worker's run wrote; for a
 *                        failed variant the partial results, possibly none)
 * The coordinator measures each variant's round trip (task sent to result
 * received) minus the worker's run time: the MPI overhead per variant.
 */
#define _POSIX_C_SOURCE 200809L

#include <mpi.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>
#include <unistd.h>

#include "rs_clock.h"
#include "rs_error.h"
#include "rs_file.h"
#include "rs_status.h"
#include "rs_sweep_mpi.h"
#include "rs_temp.h"

enum { TAG_TASK = 1, TAG_STOP = 2, TAG_RESULT = 3 };

typedef struct result_head {
    int32_t variant;
    int32_t status;
    int64_t steps;
    double wall_s;
    uint64_t msg_len;
    uint64_t ev_len;
    uint64_t csv_len;
} result_head;

/* Sends variant i (or STOP when i < 0) to worker w. */
static void send_task(rs_sweep *sw, int w, int i, double *vals, unsigned char *buf)
{
    if (i < 0) {
        MPI_Send(NULL, 0, MPI_BYTE, w, TAG_STOP, MPI_COMM_WORLD);
        return;
    }
    const int nv = rs_sweep_spec_nvars(rs_sweep_get_spec(sw));
    rs_sweep_spec_values(rs_sweep_get_spec(sw), i, vals);
    const int32_t v = i;
    memcpy(buf, &v, sizeof v);
    memcpy(buf + sizeof v, vals, (size_t)nv * sizeof *vals);
    MPI_Send(buf, (int)(sizeof v + (size_t)nv * sizeof *vals), MPI_BYTE, w, TAG_TASK, MPI_COMM_WORLD);
}

static int coordinator(rs_sweep *sw, int size, rs_sweep_report *rep, char *err, size_t errlen)
{
    const int nv = rs_sweep_spec_nvars(rs_sweep_get_spec(sw));
    double *vals = calloc((size_t)nv + 1, sizeof *vals);
    unsigned char *tbuf = malloc(sizeof(int32_t) + ((size_t)nv + 1) * sizeof(double));
    double *t_sent = calloc((size_t)size, sizeof *t_sent);
    rs_variant_result *r = malloc(sizeof *r);
    char *buf = NULL;
    size_t cap = 0;
    int st = RS_OK, active = 0;
    double overhead = 0;
    long n_over = 0;
    if (!vals || !tbuf || !t_sent || !r) {
        st = rs_fail(err, errlen, RS_E_NOMEM, "out of memory");
    }
    for (int w = 1; w < size; w++) {
        const int i = st ? -1 : rs_sweep_next(sw);
        send_task(sw, w, i, vals, tbuf);
        t_sent[w] = rs_now_s();
        active += i >= 0;
    }
    char tmp[4096], e2[1024];
    while (active > 0) {
        MPI_Status ms;
        int count;
        MPI_Probe(MPI_ANY_SOURCE, TAG_RESULT, MPI_COMM_WORLD, &ms);
        MPI_Get_count(&ms, MPI_BYTE, &count);
        const int w = ms.MPI_SOURCE;
        if ((size_t)count + 1 > cap) {
            char *nb = realloc(buf, (size_t)count + 1);
            if (!nb) {
                /* cannot even receive: stop cleanly, the sweep resumes later */
                st = rs_fail(err, errlen, RS_E_NOMEM, "out of memory receiving a result of %d bytes", count);
                MPI_Recv(NULL, 0, MPI_BYTE, w, TAG_RESULT, MPI_COMM_WORLD, MPI_STATUS_IGNORE);
                send_task(sw, w, -1, vals, tbuf);
                active--;
                continue;
            }
            buf = nb;
            cap = (size_t)count + 1;
        }
        MPI_Recv(buf, count, MPI_BYTE, w, TAG_RESULT, MPI_COMM_WORLD, MPI_STATUS_IGNORE);
        const double rtt = rs_now_s() - t_sent[w];
        result_head h;
        memcpy(&h, buf, sizeof h);
        memset(r, 0, sizeof *r);
        r->status = h.status;
        r->steps = (long)h.steps;
        r->wall_s = h.wall_s;
        const size_t ml = h.msg_len < sizeof r->message ? (size_t)h.msg_len : sizeof r->message - 1;
        memcpy(r->message, buf + sizeof h, ml);
        r->message[ml] = '\0';
        const size_t el = h.ev_len < sizeof r->events ? (size_t)h.ev_len : sizeof r->events - 1;
        memcpy(r->events, buf + sizeof h + h.msg_len, el);
        r->events[el] = '\0';
        overhead += rtt - h.wall_s;
        n_over++;
        /* the worker's CSV bytes into the folder, then the common commit */
        rs_sweep_temp_path(sw, h.variant, w, tmp, sizeof tmp);
        const char *csv = buf + sizeof h + h.msg_len + h.ev_len;
        int wrote = 1;
        if (h.csv_len > 0 || h.status == RS_OK) {
            FILE *f = fopen(tmp, "wb");
            wrote = f && fwrite(csv, 1, (size_t)h.csv_len, f) == (size_t)h.csv_len;
            if (f && fclose(f) != 0)
                wrote = 0;
        }
        if (!wrote) {
            st = rs_fail(err, errlen, RS_E_IO, "cannot write '%s' in the output folder", tmp);
        } else if (rs_sweep_commit(sw, h.variant, tmp, r, e2, sizeof e2) != RS_OK) {
            st = rs_fail(err, errlen, RS_E_IO, "%s", e2);
        } else {
            rep->ran++;
        }
        if (rs_sweep_summary_due(sw, 5.0))
            rs_sweep_write_summary(sw, e2, sizeof e2);
        const int next = st ? -1 : rs_sweep_next(sw);
        send_task(sw, w, next, vals, tbuf);
        t_sent[w] = rs_now_s();
        if (next < 0)
            active--;
    }
    const int st2 = rs_sweep_write_summary(sw, e2, sizeof e2);
    if (st2 && !st) {
        st = rs_fail(err, errlen, st2, "%s", e2);
    }
    rs_sweep_counts(sw, rep);
    rep->mpi_overhead_s = n_over ? overhead / (double)n_over : 0.0;
    free(buf);
    free(vals);
    free(tbuf);
    free(t_sent);
    free(r);
    return st;
}

static int worker(rs_sweep *sw, int rank, char *err, size_t errlen)
{
    const int nv = rs_sweep_spec_nvars(rs_sweep_get_spec(sw));
    /* $TMPDIR/railsym-sweep-HOST-PID-XXXXXX: the host too, since ranks on
     * several machines may share TMPDIR and a PID says nothing about another
     * machine's processes; those of dead workers of this host go first.
     * The folder and its one file are registered (rs_temp.h), so a worker
     * stopped by a signal leaves nothing (the command's handler). */
    char dir[RS_TEMP_PATH_MAX], e3[256];
    const char *made = NULL;
    if (rs_temp_dir(NULL, "railsym-sweep", 1, dir, sizeof dir, e3, sizeof e3) == RS_OK)
        made = dir;
    else if (rs_temp_dir("/tmp", "railsym-sweep", 1, dir, sizeof dir, e3, sizeof e3) == RS_OK)
        made = dir;
    char path[RS_TEMP_PATH_MAX + 16];
    snprintf(path, sizeof path, "%s/variant.csv", made ? made : ".");
    if (made && rs_temp_add(path, e3, sizeof e3) != RS_OK) {
        rmdir(made);
        rs_temp_forget(made);
        made = NULL;
        snprintf(path, sizeof path, "./variant.csv");
    }
    unsigned char *tbuf = malloc(sizeof(int32_t) + ((size_t)nv + 1) * sizeof(double));
    double *vals = calloc((size_t)nv + 1, sizeof *vals);
    rs_variant_result *r = malloc(sizeof *r);
    int st = RS_OK;
    for (;;) {
        MPI_Status ms;
        int count;
        MPI_Probe(0, MPI_ANY_TAG, MPI_COMM_WORLD, &ms);
        MPI_Get_count(&ms, MPI_BYTE, &count);
        if (ms.MPI_TAG != TAG_TASK || !tbuf || !vals || !r) {
            MPI_Recv(NULL, 0, MPI_BYTE, 0, ms.MPI_TAG, MPI_COMM_WORLD, MPI_STATUS_IGNORE);
            if (ms.MPI_TAG == TAG_STOP)
                break;
            /* out of memory: report the variant failed, keep serving */
            const result_head h = {0, RS_E_NOMEM, 0, 0.0, 0, 0, 0};
            MPI_Send(&h, (int)sizeof h, MPI_BYTE, 0, TAG_RESULT, MPI_COMM_WORLD);
            continue;
        }
        MPI_Recv(tbuf, count, MPI_BYTE, 0, TAG_TASK, MPI_COMM_WORLD, MPI_STATUS_IGNORE);
        int32_t i;
        memcpy(&i, tbuf, sizeof i);
        memcpy(vals, tbuf + sizeof i, (size_t)nv * sizeof *vals);
        unlink(path);
        rs_sweep_run_variant(sw, i, vals, path, r);
        size_t csv_len = 0;
        char *csv;
        rs_read_file(path, 0, 0, &csv, &csv_len);
        unlink(path);
        const size_t ml = strlen(r->message), el = strlen(r->events);
        result_head h = {i, r->status, r->steps, r->wall_s, ml, el, csv_len};
        const size_t total = sizeof h + ml + el + csv_len;
        char *msg = total < (size_t)1 << 31 ? malloc(total) : NULL;
        if (!msg) {
            h.status = RS_E_NOMEM;
            h.msg_len = h.ev_len = h.csv_len = 0;
            MPI_Send(&h, (int)sizeof h, MPI_BYTE, 0, TAG_RESULT, MPI_COMM_WORLD);
        } else {
            memcpy(msg, &h, sizeof h);
            memcpy(msg + sizeof h, r->message, ml);
            memcpy(msg + sizeof h + ml, r->events, el);
            if (csv_len)
                memcpy(msg + sizeof h + ml + el, csv, csv_len);
            MPI_Send(msg, (int)total, MPI_BYTE, 0, TAG_RESULT, MPI_COMM_WORLD);
        }
        free(msg);
        free(csv);
    }
    if (made) {
        rmdir(made);
        rs_temp_forget(path);
        rs_temp_forget(made);
    }
    free(tbuf);
    free(vals);
    free(r);
    (void)rank;
    (void)err;
    (void)errlen;
    return st;
}

int rs_sweep_mpi_run(int *argc, char ***argv, const rs_sweep_config *c, const rs_sweep_spec *s,
                     rs_sweep_report *report, int *rank_out, char *err, size_t errlen)
{
    rs_sweep_report rep_local;
    rs_sweep_report *rep = report ? report : &rep_local;
    memset(rep, 0, sizeof *rep);
    if (err && errlen)
        err[0] = '\0';
    const double t0 = rs_now_s();
    int inited = 0, we_init = 0;
    MPI_Initialized(&inited);
    if (!inited) {
        if (MPI_Init(argc, argv) != MPI_SUCCESS)
            return rs_fail(err, errlen, RS_E_ARG, "MPI_Init failed: run under mpirun (see docs/sweeps.md)");
        we_init = 1;
    }
    int rank = 0, size = 1;
    MPI_Comm_rank(MPI_COMM_WORLD, &rank);
    MPI_Comm_size(MPI_COMM_WORLD, &size);
    if (rank_out)
        *rank_out = rank;

    /* Every rank opens the sweep (loads the model, checks the names); the
     * coordinator also takes the folder.  All go on only if all succeeded. */
    rs_sweep *sw = NULL;
    int st = rs_sweep_open(&sw, c, s, err, errlen);
    if (!st && rank == 0)
        st = rs_sweep_attach(sw, err, errlen);
    int bad = st != RS_OK, any_bad = 0;
    MPI_Allreduce(&bad, &any_bad, 1, MPI_INT, MPI_MAX, MPI_COMM_WORLD);
    if (any_bad) {
        if (!bad) {
            if (err && errlen)
                err[0] = '\0';   /* another rank says why */
            st = RS_E_ARG;
        } else if (rank > 0) {
            char own[1024];
            snprintf(own, sizeof own, "%s", err);
            rs_fail(err, errlen, st, "rank %d: %s", rank, own);
        }
    } else if (size == 1) {
        st = rs_sweep_run_local(sw, rep, err, errlen);
    } else if (rank == 0) {
        st = coordinator(sw, size, rep, err, errlen);
    } else {
        st = worker(sw, rank, err, errlen);
    }
    rs_sweep_close(&sw);
    rep->wall_s = rs_now_s() - t0;
    if (we_init)
        MPI_Finalize();
    return st;
}
