#include "CResize.h"

#include <limits.h>
#include <math.h>
#include <pthread.h>
#include <stdint.h>
#include <stdlib.h>
#include <string.h>

#if defined(__x86_64__)
#include <immintrin.h>
#endif

// Weights are fixed point with 14 fractional bits: 1.0 fits an int16 twice over, which
// pmaddwd needs, and a sum of taps times 255 stays far inside an int32.
#define PRECISION 14
#define ONE (1 << PRECISION)
#define HALF (1 << (PRECISION - 1))

/// One axis' taps: output i reads `count` inputs from `first[i]` with the weights at
/// `weights + i * stride`. `stride` is even and the weights past `count` are zero, so the
/// horizontal pass may read taps two at a time.
typedef struct {
    int *first;
    int *count;
    int16_t *weights;
    int stride;
} Taps;

static double lanczos3(double x) {
    if (x == 0)
        return 1;
    if (x <= -3 || x >= 3)
        return 0;
    double pix = M_PI * x;
    return 3 * sin(pix) * sin(pix / 3) / (pix * pix);
}

/// Frees what `make_taps` made, and leaves nothing to free twice.
static void free_taps(Taps *taps) {
    free(taps->first);
    free(taps->count);
    free(taps->weights);
    *taps = (Taps){0};
}

/// The taps of a downscale from `in` to `out` samples. Output i is centred on input
/// (i + 0.5) * scale (pixel centres at half steps, as libvips centres them), the kernel widened
/// by the scale; taps outside the input are left out and the rest renormalised.
static int make_taps(int in, int out, Taps *taps) {
    double scale = (double) in / out;
    double support = 3 * scale;
    int stride = ((int) ceil(support) * 2 + 2) & ~1;
    taps->stride = stride;
    taps->first = malloc(sizeof(int) * (size_t) out);
    taps->count = malloc(sizeof(int) * (size_t) out);
    taps->weights = calloc((size_t) out * stride, sizeof(int16_t));
    double *real = malloc(sizeof(double) * (size_t) stride);
    if (!taps->first || !taps->count || !taps->weights || !real) {
        free(real);
        free_taps(taps);
        return -1;
    }
    for (int i = 0; i < out; i++) {
        double centre = (i + 0.5) * scale;
        int first = (int) floor(centre - support + 0.5);
        int last = (int) floor(centre + support + 0.5);
        if (first < 0)
            first = 0;
        if (last > in)
            last = in;
        if (last - first > stride)
            last = first + stride;
        double total = 0;
        for (int k = 0; k < last - first; k++) {
            real[k] = lanczos3((first + k + 0.5 - centre) / scale);
            total += real[k];
        }
        int16_t *weights = taps->weights + (size_t) i * stride;
        int sum = 0, largest = 0;
        for (int k = 0; k < last - first; k++) {
            weights[k] = (int16_t) lround(real[k] / total * ONE);
            sum += weights[k];
            if (weights[k] > weights[largest])
                largest = k;
        }
        // Rounding may leave the sum a little off 1.0, and a flat area would then not stay flat.
        weights[largest] = (int16_t) (weights[largest] + ONE - sum);
        taps->first[i] = first;
        taps->count[i] = last - first;
    }
    free(real);
    return 0;
}

static inline unsigned char clamp_pixel(int32_t value) {
    value = (value + HALF) >> PRECISION;
    return (unsigned char) (value < 0 ? 0 : value > 255 ? 255 : value);
}

/// One output row of the vertical pass: `length` bytes, each the weighted sum of the same byte
/// in the `count` rows at `rows`. Compilers vectorise the inner loops; `sums` is scratch.
#if defined(__x86_64__)
__attribute__((target_clones("avx2", "default")))
#endif
static void vertical_row(
    const unsigned char *const *rows, int count, const int16_t *weights, size_t length, int32_t *sums, unsigned char *out) {
    for (size_t x = 0; x < length; x++)
        sums[x] = HALF;
    for (int k = 0; k < count; k++) {
        const unsigned char *row = rows[k];
        int32_t weight = weights[k];
        for (size_t x = 0; x < length; x++)
            sums[x] += weight * row[x];
    }
    for (size_t x = 0; x < length; x++) {
        int32_t value = sums[x] >> PRECISION;
        out[x] = (unsigned char) (value < 0 ? 0 : value > 255 ? 255 : value);
    }
}

static void horizontal_row_scalar(const unsigned char *row, int bands, const Taps *taps, int out_width, unsigned char *out) {
    for (int i = 0; i < out_width; i++) {
        const unsigned char *in = row + (size_t) taps->first[i] * bands;
        const int16_t *weights = taps->weights + (size_t) i * taps->stride;
        for (int band = 0; band < bands; band++) {
            int32_t sum = 0;
            for (int k = 0; k < taps->count[i]; k++)
                sum += weights[k] * in[k * bands + band];
            out[i * bands + band] = clamp_pixel(sum);
        }
    }
}

#if defined(__x86_64__)
/// Three or four bands: each pair of taps is one pmaddwd of the two pixels' channels, laid out
/// as (channel of pixel a, same channel of pixel b) by one pshufb, against (weight a, weight b);
/// the four 32-bit lanes are then the output pixel's channels. Reads up to 8 bytes from a pair's
/// first pixel and writes 4 bytes a pixel, so `row` and `out` need that much room past the end.
__attribute__((target("ssse3"))) static void horizontal_row_ssse3(
    const unsigned char *row, int bands, const Taps *taps, int out_width, unsigned char *out) {
    const __m128i pairs = bands == 3 ? _mm_setr_epi8(0, -1, 3, -1, 1, -1, 4, -1, 2, -1, 5, -1, -1, -1, -1, -1)
                                     : _mm_setr_epi8(0, -1, 4, -1, 1, -1, 5, -1, 2, -1, 6, -1, 3, -1, 7, -1);
    const __m128i half = _mm_set1_epi32(HALF);
    for (int i = 0; i < out_width; i++) {
        const unsigned char *in = row + (size_t) taps->first[i] * bands;
        const int16_t *weights = taps->weights + (size_t) i * taps->stride;
        __m128i sum = half;
        for (int k = 0; k < taps->count[i]; k += 2) {
            __m128i pixels = _mm_shuffle_epi8(_mm_loadl_epi64((const __m128i *) (in + k * bands)), pairs);
            int32_t pair;
            memcpy(&pair, weights + k, sizeof pair);
            sum = _mm_add_epi32(sum, _mm_madd_epi16(pixels, _mm_set1_epi32(pair)));
        }
        __m128i packed = _mm_packus_epi16(_mm_packs_epi32(_mm_srai_epi32(sum, PRECISION), sum), sum);
        int32_t bytes = _mm_cvtsi128_si32(packed);
        memcpy(out + (size_t) i * bands, &bytes, sizeof bytes);
    }
}
#endif

static void horizontal_row(const unsigned char *row, int bands, const Taps *taps, int out_width, unsigned char *out) {
#if defined(__x86_64__)
    if (bands >= 3 && __builtin_cpu_supports("ssse3")) {
        horizontal_row_ssse3(row, bands, taps, out_width, out);
        return;
    }
#endif
    horizontal_row_scalar(row, bands, taps, out_width, out);
}

/// Both axes' taps of a resize from `width` x `height` to `out_width` x `out_height`; -1 (and
/// nothing to free) when memory runs out.
static int make_axes(int width, int height, int out_width, int out_height, Taps *across, Taps *down) {
    if (make_taps(width, out_width, across) == 0 && make_taps(height, out_height, down) == 0) return 0;
    free_taps(across);
    free_taps(down);
    return -1;
}

/// What one thread resizes: output rows `from` to `to`, with scratch of its own; with a
/// `stream`, each row once the input rows it reads are there. Input row r is at
/// `pixels + (r % ring) * stride`: a whole picture has a ring of its height, a stream one of
/// just the rows its resize still reads.
typedef struct {
    const unsigned char *pixels;
    int width, height, bands, out_width, out_height, from, to, ring;
    size_t stride;
    const Taps *across, *down;
    unsigned char *out;
    CRResizeStream *stream;
    /// Whether scratch could not be had, and the first row not made.
    int failed, next;
} Band;

/// Scratch for making rows, with room past the end for the SSSE3 pass's 8-byte reads and
/// 4-byte writes.
typedef struct {
    unsigned char *row, *line;
    int32_t *sums;
    const unsigned char **rows;
} Scratch;

static int make_scratch(const Band *job, Scratch *scratch) {
    size_t row_length = (size_t) job->width * job->bands;
    scratch->row = calloc(row_length + 16, 1);
    scratch->line = malloc((size_t) job->out_width * job->bands + 16);
    scratch->sums = malloc(sizeof(int32_t) * row_length);
    scratch->rows = malloc(sizeof(*scratch->rows) * (size_t) job->down->stride);
    return scratch->row && scratch->line && scratch->sums && scratch->rows ? 0 : -1;
}

static void free_scratch(Scratch *scratch) {
    free(scratch->row);
    free(scratch->line);
    free(scratch->sums);
    free(scratch->rows);
    *scratch = (Scratch){0};
}

/// The first input row output row `y` reads.
static int first_row(const Band *job, int y) {
    return job->height == job->out_height ? y : job->down->first[y];
}

/// How many input rows output row `y` reads from the top.
static int rows_needed(const Band *job, int y) {
    return job->height == job->out_height ? y + 1 : job->down->first[y] + job->down->count[y];
}

static const unsigned char *input_row(const Band *job, int row) {
    return job->pixels + (size_t) (row % job->ring) * job->stride;
}

static void resize_row(const Band *job, int y, Scratch *scratch) {
    int bands = job->bands;
    size_t row_length = (size_t) job->width * bands, out_length = (size_t) job->out_width * bands;
    const unsigned char *across_row = input_row(job, y);
    if (job->height != job->out_height) {
        int first = job->down->first[y], count = job->down->count[y];
        for (int k = 0; k < count; k++) scratch->rows[k] = input_row(job, first + k);
        vertical_row(scratch->rows, count, job->down->weights + (size_t) y * job->down->stride, row_length, scratch->sums,
            scratch->row);
        across_row = scratch->row;
    }
    unsigned char *target = job->out + (size_t) y * out_length;
    if (job->width == job->out_width) {
        memcpy(target, across_row, out_length);
        return;
    }
    if (across_row != scratch->row) memcpy(scratch->row, across_row, row_length);
    horizontal_row(scratch->row, bands, job->across, job->out_width, scratch->line);
    memcpy(target, scratch->line, out_length);
}

static int wait_for_rows(CRResizeStream *stream, int first, int needed);

static void make_rows(Band *job, Scratch *scratch) {
    for (job->next = job->from; job->next < job->to; job->next++) {
        if (job->stream && !wait_for_rows(job->stream, first_row(job, job->next), rows_needed(job, job->next))) break;
        resize_row(job, job->next, scratch);
    }
}

static void *resize_rows(void *argument) {
    Band *job = argument;
    Scratch scratch;
    if (make_scratch(job, &scratch)) {
        job->failed = 1;
    } else {
        make_rows(job, &scratch);
    }
    free_scratch(&scratch);
    return NULL;
}

/// Below this many output pixels a second thread costs more than it saves (a thumbnail).
#define SPLIT_SMALLEST (256 * 1024)

static int valid(int width, int height, size_t stride, int bands, int out_width, int out_height) {
    return width >= 1 && height >= 1 && out_width >= 1 && out_height >= 1 && out_width <= width && out_height <= height &&
           bands >= 1 && bands <= 4 && stride >= (size_t) width * bands;
}

int cr_resize_takes(int width, int height, int bands, int out_width, int out_height) {
    return valid(width, height, (size_t) width * (size_t) (bands > 0 ? bands : 0), bands, out_width, out_height) &&
           (out_width < width || out_height < height);
}

int cr_resize_lanczos3(
    const unsigned char *pixels, int width, int height, size_t stride, int bands, unsigned char *out, int out_width,
    int out_height) {
    if (!valid(width, height, stride, bands, out_width, out_height)) return -1;
    Taps across = {0}, down = {0};
    if (make_axes(width, height, out_width, out_height, &across, &down)) return -1;
    Band upper = {pixels, width, height, bands, out_width, out_height, 0, out_height, height, stride, &across, &down, out, NULL, 0, 0};
    Band lower = upper;
    pthread_t helper;
    int split = (long long) out_width * out_height >= SPLIT_SMALLEST;
    if (split) {
        upper.to = lower.from = out_height / 2;
        split = pthread_create(&helper, NULL, resize_rows, &lower) == 0;
        if (!split) upper.to = out_height;
    }
    resize_rows(&upper);
    if (split) pthread_join(helper, NULL);
    free_taps(&across);
    free_taps(&down);
    return upper.failed || lower.failed ? -1 : 0;
}

struct CRResizeStream {
    Band job;
    Taps across, down;
    Scratch scratch;
    unsigned char *ring;
    pthread_t thread;
    pthread_mutex_t lock;
    /// `more` wakes the resize when rows come, `room` the input when ring rows are let go.
    pthread_cond_t more, room;
    /// Under `lock`: input rows there, the first row the resize still reads, whether the input
    /// was given up, and whether the resize reads no more.
    int ready, kept_from, abandoned, done;
    /// The input's own: rows it has told of, and the last `kept_from` it saw.
    int told, seen_kept_from;
};

/// 1 once the first `needed` input rows are there; 0 when the input was given up. Rows before
/// `first` are let go.
static int wait_for_rows(CRResizeStream *stream, int first, int needed) {
    pthread_mutex_lock(&stream->lock);
    if (first > stream->kept_from) {
        stream->kept_from = first;
        pthread_cond_signal(&stream->room);
    }
    while (stream->ready < needed && !stream->abandoned) pthread_cond_wait(&stream->more, &stream->lock);
    int abandoned = stream->abandoned;
    pthread_mutex_unlock(&stream->lock);
    return !abandoned;
}

static void *stream_rows(void *argument) {
    CRResizeStream *stream = argument;
    make_rows(&stream->job, &stream->scratch);
    pthread_mutex_lock(&stream->lock);
    stream->done = 1;
    pthread_cond_signal(&stream->room);
    pthread_mutex_unlock(&stream->lock);
    return NULL;
}

static void free_stream(CRResizeStream *stream) {
    free_scratch(&stream->scratch);
    free_taps(&stream->across);
    free_taps(&stream->down);
    free(stream->ring);
    free(stream);
}

/// Rows told of in one go past the ones that must be: each telling is a lock and a wake-up.
#define TELL_EVERY 16

CRResizeStream *cr_resize_stream_start(int width, int height, int bands, unsigned char *out, int out_width, int out_height) {
    size_t stride = (size_t) width * (size_t) (bands > 0 ? bands : 0);
    if (!valid(width, height, stride, bands, out_width, out_height)) return NULL;
    CRResizeStream *stream = calloc(1, sizeof *stream);
    if (!stream) return NULL;
    if (make_axes(width, height, out_width, out_height, &stream->across, &stream->down)) {
        free(stream);
        return NULL;
    }
    // The most rows one output row reads, and room for the input to run ahead while they are read.
    int ring = stream->down.stride + 2 * TELL_EVERY;
    if (ring > height) ring = height;
    stream->job = (Band){NULL, width, height, bands, out_width, out_height, 0, out_height, ring, stride, &stream->across,
        &stream->down, out, stream, 0, 0};
    stream->ring = malloc((size_t) ring * stride);
    if (!stream->ring || make_scratch(&stream->job, &stream->scratch)) {
        free_stream(stream);
        return NULL;
    }
    stream->job.pixels = stream->ring;
    pthread_mutex_init(&stream->lock, NULL);
    pthread_cond_init(&stream->more, NULL);
    pthread_cond_init(&stream->room, NULL);
    if (pthread_create(&stream->thread, NULL, stream_rows, stream) != 0) {
        pthread_mutex_destroy(&stream->lock);
        pthread_cond_destroy(&stream->more);
        pthread_cond_destroy(&stream->room);
        free_stream(stream);
        return NULL;
    }
    return stream;
}

unsigned char *cr_resize_stream_row(CRResizeStream *stream, int y) {
    int ring = stream->job.ring;
    // The row before y - ring, in the slot y takes, must have been let go.
    if (y - TELL_EVERY >= stream->told || y >= stream->seen_kept_from + ring) {
        pthread_mutex_lock(&stream->lock);
        if (y > stream->ready) {
            stream->ready = y;
            pthread_cond_signal(&stream->more);
        }
        while (y >= stream->kept_from + ring && !stream->done) pthread_cond_wait(&stream->room, &stream->lock);
        stream->seen_kept_from = stream->done ? INT_MAX - ring : stream->kept_from;
        pthread_mutex_unlock(&stream->lock);
        stream->told = y;
    }
    return stream->ring + (size_t) (y % ring) * stream->job.stride;
}

int cr_resize_stream_finish(CRResizeStream *stream, int complete) {
    pthread_mutex_lock(&stream->lock);
    if (complete) {
        stream->ready = stream->job.height;
    } else {
        stream->abandoned = 1;
    }
    pthread_cond_signal(&stream->more);
    pthread_mutex_unlock(&stream->lock);
    pthread_join(stream->thread, NULL);
    int whole = complete && stream->job.next == stream->job.out_height;
    pthread_mutex_destroy(&stream->lock);
    pthread_cond_destroy(&stream->more);
    pthread_cond_destroy(&stream->room);
    free_stream(stream);
    return whole ? 0 : -1;
}
