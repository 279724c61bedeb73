#include "CJPEGDecoder.h"
#include "CJPEGSplit.h"

#include <CResize.h>

#include <errno.h>
#include <limits.h>
#include <pthread.h>
#include <setjmp.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include <jpeglib.h>
#include <jerror.h>

enum { READ_BUFFER = 256 * 1024 };

typedef struct {
    struct jpeg_error_mgr pub;
    jmp_buf escape;
    CRJPEGDamage damage;
    char *detail;
    size_t detail_size;
    // Kept here rather than in locals, so that they are still known after a longjmp.
    unsigned char *pixels;
    unsigned char *resized;
    CRResizeStream *stream;
} Decode;

static void remember(j_common_ptr cinfo, CRJPEGDamage damage) {
    Decode *decode = (Decode *)cinfo->err;
    if (damage <= decode->damage) return;
    decode->damage = damage;
    if (decode->detail_size > 0) {
        char text[JMSG_LENGTH_MAX];
        (*cinfo->err->format_message)(cinfo, text);
        snprintf(decode->detail, decode->detail_size, "%s", text);
    }
}

static CRJPEGDamage warning_damage(const struct jpeg_error_mgr *err) {
    switch (err->msg_code) {
    // Bytes skipped between segments or after the last MCU, and metadata libjpeg ignores.
    case JWRN_EXTRANEOUS_DATA:
    case JWRN_ADOBE_XFORM:
    case JWRN_JFIF_MAJOR:
    case JWRN_BOGUS_ICC:
        return CR_JPEG_HARMLESS;
    case JWRN_HIT_MARKER:
    case JWRN_JPEG_EOF:
        return CR_JPEG_TRUNCATED;
    case JWRN_MUST_RESYNC:
        // "Found marker 0xd9 instead of RSTn": the scan data stops at the end of image.
        return err->msg_parm.i[0] == JPEG_EOI ? CR_JPEG_TRUNCATED : CR_JPEG_CORRUPT;
    default:
        return CR_JPEG_CORRUPT;
    }
}

static CRJPEGDamage error_damage(int code) {
    switch (code) {
    case JERR_INPUT_EOF:
        return CR_JPEG_TRUNCATED;
    case JERR_BAD_PRECISION:
    case JERR_SOF_UNSUPPORTED:
    case JERR_NOTIMPL:
    case JERR_NOT_COMPILED:
        return CR_JPEG_UNSUPPORTED;
    default:
        return CR_JPEG_CORRUPT;
    }
}

static void on_message(j_common_ptr cinfo, int level) {
    // Levels of 0 and above are traces, not findings.
    if (level < 0) remember(cinfo, warning_damage(cinfo->err));
}

static void on_error(j_common_ptr cinfo) {
    remember(cinfo, error_damage(cinfo->err->msg_code));
    longjmp(((Decode *)cinfo->err)->escape, 1);
}

static void silent(j_common_ptr cinfo) { (void)cinfo; }

static void start_decode(struct jpeg_decompress_struct *cinfo, Decode *decode, char *detail, size_t detail_size) {
    memset(decode, 0, sizeof *decode);
    cinfo->err = jpeg_std_error(&decode->pub);
    decode->pub.error_exit = on_error;
    decode->pub.emit_message = on_message;
    decode->pub.output_message = silent;
    decode->damage = CR_JPEG_WHOLE;
    decode->detail = detail;
    decode->detail_size = detail_size;
}

/// The lower half's data as libjpeg asks for it: its head (the file's segments, with the
/// frame's height of the rows that remain) from memory, then the file from the cut on, read
/// with pread (the upper half reads the same descriptor through stdio, at its own offset), its
/// restart markers renumbered as they pass.
typedef struct {
    struct jpeg_source_mgr pub;
    unsigned char *head;
    size_t head_size;
    int head_given;
    int fd;
    size_t offset;
    unsigned char *buffer;
    size_t buffer_size;
    CRJPEGRenumber renumber;
} TailSource;

/// `size` bytes of the file from `offset`, fewer only at its end; -1 on a read error.
static ssize_t read_at(int fd, unsigned char *buffer, size_t size, size_t offset) {
    size_t done = 0;
    while (done < size) {
        ssize_t got = pread(fd, buffer + done, size - done, (off_t)(offset + done));
        if (got < 0 && errno == EINTR) continue;
        if (got < 0) return -1;
        if (got == 0) break;
        done += (size_t)got;
    }
    return (ssize_t)done;
}

static void tail_start(j_decompress_ptr cinfo) { (void)cinfo; }

static boolean tail_fill(j_decompress_ptr cinfo) {
    TailSource *source = (TailSource *)cinfo->src;
    if (!source->head_given) {
        source->head_given = 1;
        source->pub.next_input_byte = source->head;
        source->pub.bytes_in_buffer = source->head_size;
        return TRUE;
    }
    ssize_t got = read_at(source->fd, source->buffer, source->buffer_size, source->offset);
    if (got <= 0) {
        // As libjpeg's own sources do at the end of the data: a warning, and an EOI.
        WARNMS(cinfo, JWRN_JPEG_EOF);
        source->buffer[0] = 0xFF;
        source->buffer[1] = JPEG_EOI;
        got = 2;
    } else {
        source->offset += (size_t)got;
        cr_jpeg_renumber(&source->renumber, source->buffer, (size_t)got);
    }
    source->pub.next_input_byte = source->buffer;
    source->pub.bytes_in_buffer = (size_t)got;
    return TRUE;
}

static void tail_skip(j_decompress_ptr cinfo, long count) {
    struct jpeg_source_mgr *source = cinfo->src;
    if (count <= 0) return;
    while ((size_t)count > source->bytes_in_buffer) {
        count -= (long)source->bytes_in_buffer;
        (void)tail_fill(cinfo);
    }
    source->next_input_byte += count;
    source->bytes_in_buffer -= (size_t)count;
}

static void tail_end(j_decompress_ptr cinfo) { (void)cinfo; }

/// One half of a split decode: where its data comes from, and where its rows go.
typedef struct {
    /// The upper half's: the file itself, through stdio.
    FILE *file;
    /// The lower half's: its head, then the file from the cut on.
    TailSource *tail;
    int shrink;
    /// The first row of the picture this half writes, and how many output rows it has.
    JDIMENSION first_row;
    JDIMENSION rows;
    /// Where the half's first row goes, rows of `stride` bytes; or, when NULL, every row into
    /// `stream`, the resize's ring.
    unsigned char *pixels;
    CRResizeStream *stream;
    size_t stride;
    /// The picture's size: rows past `height` are libjpeg's rounding, not the picture's.
    JDIMENSION width;
    JDIMENSION height;
    int bands;
    Decode decode;
    char detail[200];
    /// 1 once every row of the half was decoded (no jump out of libjpeg).
    int finished;
} Half;

static void *decode_half(void *argument) {
    Half *half = argument;
    struct jpeg_decompress_struct cinfo;
    start_decode(&cinfo, &half->decode, half->detail, sizeof half->detail);
    if (setjmp(half->decode.escape)) {
        jpeg_destroy_decompress(&cinfo);
        return NULL;
    }
    jpeg_create_decompress(&cinfo);
    if (half->tail) {
        cinfo.src = &half->tail->pub;
    } else {
        jpeg_stdio_src(&cinfo, half->file);
    }
    jpeg_read_header(&cinfo, TRUE);
    cinfo.scale_num = 1;
    cinfo.scale_denom = (unsigned int)half->shrink;
    jpeg_start_decompress(&cinfo);
    if (cinfo.output_components != half->bands || cinfo.output_width < half->width) ERREXIT(&cinfo, JERR_EMPTY_IMAGE);
    JSAMPARRAY row = (*cinfo.mem->alloc_sarray)((j_common_ptr)&cinfo, JPOOL_IMAGE, cinfo.output_width * (JDIMENSION)half->bands, 1);
    int invert = cinfo.out_color_space == JCS_CMYK;
    while (cinfo.output_scanline < cinfo.output_height && cinfo.output_scanline < half->rows) {
        JDIMENSION line = cinfo.output_scanline, y = half->first_row + line;
        jpeg_read_scanlines(&cinfo, row, 1);
        if (y >= half->height) continue;
        unsigned char *target = half->pixels ? half->pixels + (size_t)line * half->stride : cr_resize_stream_row(half->stream, (int)y);
        if (invert) {
            for (size_t i = 0; i < half->stride; i++) target[i] = (unsigned char)(255 - row[0][i]);
        } else {
            memcpy(target, row[0], half->stride);
        }
    }
    half->finished = cinfo.output_scanline >= half->rows || cinfo.output_scanline >= cinfo.output_height;
    // The upper half stops before its frame's end: what is left is the lower half's.
    jpeg_destroy_decompress(&cinfo);
    return NULL;
}

/// Whether `image` asks for a resize CResize takes from a decode of `width` x `height`.
static int resizes(const CRJPEGImage *image, JDIMENSION width, JDIMENSION height, int bands) {
    return width <= INT_MAX && height <= INT_MAX &&
           cr_resize_takes((int)width, (int)height, bands, image->resize_width, image->resize_height);
}

/// Hands the decoded pixels to `image`: resized as it asks when it asks (the decode's own when
/// memory for the resize runs out), which frees the decode's.
static void hand_over(CRJPEGImage *image, unsigned char *pixels, JDIMENSION width, JDIMENSION height, int bands) {
    image->bands = bands;
    if (resizes(image, width, height, bands)) {
        unsigned char *out = malloc((size_t)image->resize_width * (size_t)image->resize_height * (size_t)bands);
        if (out && cr_resize_lanczos3(pixels, (int)width, (int)height, (size_t)width * (size_t)bands, bands, out, image->resize_width,
                                      image->resize_height) == 0) {
            free(pixels);
            image->pixels = out;
            image->width = image->resize_width;
            image->height = image->resize_height;
            return;
        }
        free(out);
    }
    image->pixels = pixels;
    image->width = (int)width;
    image->height = (int)height;
}

/// The file's start, read until it holds the segments before the scan (the first 64 KB of most
/// files; metadata can push the scan further), up to CR_JPEG_HEAD_LARGEST, and the plan begun
/// from it; NULL when the file cannot be cut.
static unsigned char *read_start(int fd, size_t size, CRJPEGPlan *plan) {
    unsigned char *start = NULL;
    for (size_t want = size < 64 * 1024 ? size : 64 * 1024;; want = want * 4 < size ? want * 4 : size) {
        unsigned char *grown = realloc(start, want);
        if (!grown) break;
        start = grown;
        int verdict = read_at(fd, start, want, 0) == (ssize_t)want ? cr_jpeg_plan_start(start, want, plan) : -1;
        if (verdict == 1) return start;
        if (verdict < 0 || want == size || want >= CR_JPEG_HEAD_LARGEST) break;
    }
    free(start);
    return NULL;
}

/// 1 when the scan's data, read from the file into `piece` a piece at a time and none of it
/// kept, ends the plan with a cut.
static int plan_data(int fd, size_t size, unsigned char *piece, size_t piece_size, CRJPEGPlan *plan) {
    for (size_t offset = plan->offset; offset < size; offset += piece_size) {
        size_t length = size - offset < piece_size ? size - offset : piece_size;
        if (read_at(fd, piece, length, offset) != (ssize_t)length) return 0;
        int planned = cr_jpeg_plan_data(plan, piece, length);
        if (planned != 0) return planned == 1;
    }
    return 0;
}

/// The picture's width and bands as libjpeg reads the header in `start` (which holds all of
/// it), when its height is the one the cut was planned for and it decodes without a warning;
/// 0 otherwise.
static JDIMENSION checked_width(const unsigned char *start, const CRJPEGSplit *split, int shrink, long long max_pixels, int *bands) {
    struct jpeg_decompress_struct cinfo;
    Decode decode;
    JDIMENSION width = 0;
    start_decode(&cinfo, &decode, NULL, 0);
    if (!setjmp(decode.escape)) {
        jpeg_create_decompress(&cinfo);
        jpeg_mem_src(&cinfo, start, (unsigned long)split->scan_start);
        jpeg_read_header(&cinfo, TRUE);
        cinfo.scale_num = 1;
        cinfo.scale_denom = (unsigned int)shrink;
        jpeg_calc_output_dimensions(&cinfo);
        if (cinfo.image_height == split->height && (long long)cinfo.image_width * (long long)cinfo.image_height <= max_pixels &&
            decode.damage == CR_JPEG_WHOLE) {
            width = cinfo.image_width;
            *bands = cinfo.output_components;
        }
    }
    jpeg_destroy_decompress(&cinfo);
    return width;
}

/// The picture decoded in two halves at once, one on a thread of its own, when the file has
/// restart markers to cut it at (`cr_jpeg_plan_split`); -1 when it has not, or its header is not
/// one libjpeg decodes alike, and then nothing is decoded. The verdict is the worse of the two
/// halves', and pixels come only when both halves were decoded to their last row.
/// Neither half holds the file: the upper one reads it through `file`, the lower one from the
/// cut on. Both write into the whole picture, which is then resized on both cores; or, for a
/// picture of `image->halves_streamed_from` pixels or more, the resize takes the upper half's
/// rows as they come and only the lower half's are held until it is their turn. That holds
/// half as much, but leaves the resize of the lower half to one core (15% slower on two).
static int decode_in_halves(
    FILE *file, size_t smallest, int shrink, long long max_pixels, int keep_corrupt, CRJPEGImage *image, char *detail,
    size_t detail_size) {
    // The scaled sizes below are exact for libjpeg's power-of-two scales only.
    if (shrink != 1 && shrink != 2 && shrink != 4 && shrink != 8) return -1;
    int fd = fileno(file);
    struct stat status;
    if (fstat(fd, &status) != 0 || status.st_size < 4 || (size_t)status.st_size < smallest) return -1;
    unsigned char *piece = malloc(READ_BUFFER);
    if (!piece) return -1;
    CRJPEGPlan plan = {0};
    unsigned char *start = read_start(fd, (size_t)status.st_size, &plan), *head = NULL;
    int bands = 0;
    JDIMENSION width = 0;
    if (start && plan_data(fd, (size_t)status.st_size, piece, READ_BUFFER, &plan)) {
        width = checked_width(start, &plan.split, shrink, max_pixels, &bands);
        if (width > 0) head = cr_jpeg_lower_head(start, &plan.split);
    }
    free(start);
    const CRJPEGSplit split = plan.split;
    JDIMENSION out_width = width / (JDIMENSION)shrink, out_height = split.height / (JDIMENSION)shrink;
    JDIMENSION upper_rows = split.rows_before * split.mcu_height / (JDIMENSION)shrink;
    size_t stride = (size_t)out_width * (size_t)bands;
    unsigned char *pixels = NULL, *resized = NULL;
    CRResizeStream *stream = NULL;
    if (head && out_width > 0 && out_height > 0) {
        if (resizes(image, out_width, out_height, bands) && (long long)width * split.height >= image->halves_streamed_from) {
            resized = malloc((size_t)image->resize_width * (size_t)image->resize_height * (size_t)bands);
            if (resized)
                stream = cr_resize_stream_start(
                    (int)out_width, (int)out_height, bands, resized, image->resize_width, image->resize_height);
            if (!stream) {
                free(resized);
                resized = NULL;
            }
        }
        // The rows the lower half holds while the resize takes the upper half's, or the whole picture.
        size_t held = stream ? (size_t)(out_height - upper_rows) : (size_t)out_height;
        pixels = malloc(stride * (held > 0 ? held : 1));
    }
    if (!pixels) {
        if (stream) cr_resize_stream_finish(stream, 0);
        free(resized);
        free(head);
        free(piece);
        return -1;
    }
    TailSource tail = {
        .pub = {.init_source = tail_start, .fill_input_buffer = tail_fill, .skip_input_data = tail_skip,
                .resync_to_restart = jpeg_resync_to_restart, .term_source = tail_end},
        .head = head, .head_size = split.scan_start, .fd = fd, .offset = split.tail_start, .buffer = piece,
        .buffer_size = READ_BUFFER, .renumber = {.markers_before = split.markers_before},
    };
    Half halves[2];
    memset(halves, 0, sizeof halves);
    for (int i = 0; i < 2; i++) {
        halves[i].shrink = shrink;
        halves[i].stride = stride;
        halves[i].width = out_width;
        halves[i].height = out_height;
        halves[i].bands = bands;
    }
    halves[0].file = file;
    halves[0].first_row = 0;
    halves[0].rows = upper_rows;
    halves[0].pixels = stream ? NULL : pixels;
    halves[0].stream = stream;
    halves[1].tail = &tail;
    halves[1].first_row = upper_rows;
    halves[1].rows = (JDIMENSION)-1;
    halves[1].pixels = stream ? pixels : pixels + (size_t)upper_rows * stride;
    pthread_t thread;
    int threaded = pthread_create(&thread, NULL, decode_half, &halves[1]) == 0;
    decode_half(&halves[0]);
    if (threaded) {
        pthread_join(thread, NULL);
    } else {
        decode_half(&halves[1]);
    }
    free(head);
    free(piece);

    // The worse half's message; of two alike, the one that has a message.
    const Half *worse = halves[1].decode.damage > halves[0].decode.damage ||
                                (halves[1].decode.damage == halves[0].decode.damage && halves[0].detail[0] == '\0')
                            ? &halves[1]
                            : &halves[0];
    CRJPEGDamage damage = worse->decode.damage;
    if (detail_size > 0) snprintf(detail, detail_size, "%s", worse->detail);
    int finished = halves[0].finished && halves[1].finished;
    if (stream) {
        for (JDIMENSION y = upper_rows; finished && y < out_height; y++)
            memcpy(cr_resize_stream_row(stream, (int)y), pixels + (size_t)(y - upper_rows) * stride, stride);
        free(pixels);
        pixels = NULL;
        // A stream given every row makes every output row (see cr_jpeg_decode).
        finished = cr_resize_stream_finish(stream, finished) == 0 && finished;
    }
    if (!finished || (damage > CR_JPEG_HARMLESS && !(keep_corrupt && damage == CR_JPEG_CORRUPT))) {
        free(pixels);
        free(resized);
        return damage == CR_JPEG_WHOLE ? CR_JPEG_CORRUPT : damage;
    }
    image->in_halves = 1;
    if (stream) {
        image->pixels = resized;
        image->width = image->resize_width;
        image->height = image->resize_height;
        image->bands = bands;
    } else {
        hand_over(image, pixels, out_width, out_height, bands);
    }
    return damage;
}

CRJPEGDamage cr_jpeg_decode(
    const char *path, int shrink, long long max_pixels, int keep_corrupt, size_t halves_from, CRJPEGImage *image, char *detail,
    size_t detail_size) {
    if (detail_size > 0) detail[0] = '\0';
    FILE *file = fopen(path, "rbe");
    if (!file) return CR_JPEG_UNCHECKED;
    // libjpeg asks stdio for 4 KB at a time: read(2)s of that size were a twentieth of a
    // thumbnail's time. (Mapping the file instead would count all of it in the process's memory.)
    char *buffer = malloc(READ_BUFFER);
    if (buffer) setvbuf(file, buffer, _IOFBF, READ_BUFFER);
    if (image && halves_from > 0) {
        int verdict = decode_in_halves(file, halves_from, shrink, max_pixels, keep_corrupt, image, detail, detail_size);
        if (verdict >= 0) {
            fclose(file);
            free(buffer);
            return (CRJPEGDamage)verdict;
        }
    }

    struct jpeg_decompress_struct cinfo;
    Decode decode;
    start_decode(&cinfo, &decode, detail, detail_size);

    if (setjmp(decode.escape)) {
        // The resize reads the decode's rows until it is stopped.
        if (decode.stream) cr_resize_stream_finish(decode.stream, 0);
        free(decode.resized);
        free(decode.pixels);
        jpeg_destroy_decompress(&cinfo);
        fclose(file);
        free(buffer);
        return decode.damage;
    }
    jpeg_create_decompress(&cinfo);
    jpeg_stdio_src(&cinfo, file);
    jpeg_read_header(&cinfo, TRUE);
    if ((long long)cinfo.image_width * (long long)cinfo.image_height > max_pixels) {
        jpeg_destroy_decompress(&cinfo);
        fclose(file);
        free(buffer);
        return CR_JPEG_TOO_LARGE;
    }
    cinfo.scale_num = 1;
    cinfo.scale_denom = image ? (unsigned int)shrink : 8;
    if (!image) {
        // Only the verdict is wanted: the quickest pixels will do.
        cinfo.dct_method = JDCT_IFAST;
        cinfo.do_fancy_upsampling = FALSE;
    }
    jpeg_start_decompress(&cinfo);

    // libjpeg rounds a scaled size up and fills the last column and row from outside the
    // picture; libvips rounds down, and so does this.
    int bands = cinfo.output_components;
    JDIMENSION width = image ? cinfo.image_width / (JDIMENSION)shrink : 0;
    JDIMENSION height = image ? cinfo.image_height / (JDIMENSION)shrink : 0;
    size_t stride = (size_t)width * (size_t)bands;
    if (image) {
        if (width == 0 || height == 0 || width > cinfo.output_width || height > cinfo.output_height) ERREXIT(&cinfo, JERR_EMPTY_IMAGE);
        // A streamed resize keeps only the rows it still reads: the whole decode is never held.
        if (resizes(image, width, height, bands)) {
            decode.resized = malloc((size_t)image->resize_width * (size_t)image->resize_height * (size_t)bands);
            if (decode.resized)
                decode.stream =
                    cr_resize_stream_start((int)width, (int)height, bands, decode.resized, image->resize_width, image->resize_height);
        }
        if (!decode.stream) {
            decode.pixels = malloc(stride * height);
            if (!decode.pixels) ERREXIT1(&cinfo, JERR_OUT_OF_MEMORY, 0);
        }
    }
    // From libjpeg's own pool, so a jump out of the loop leaves nothing else to free.
    JSAMPARRAY row = (*cinfo.mem->alloc_sarray)(
        (j_common_ptr)&cinfo, JPOOL_IMAGE, cinfo.output_width * (JDIMENSION)bands, 1);
    // Adobe's CMYK JPEGs store ink inverted, and libvips treats every CMYK JPEG so.
    int invert = cinfo.out_color_space == JCS_CMYK;
    while (cinfo.output_scanline < cinfo.output_height) {
        JDIMENSION y = cinfo.output_scanline;
        jpeg_read_scanlines(&cinfo, row, 1);
        if (!image || y >= height) continue;
        unsigned char *target = decode.stream ? cr_resize_stream_row(decode.stream, (int)y) : decode.pixels + (size_t)y * stride;
        if (invert) {
            for (size_t i = 0; i < stride; i++) target[i] = (unsigned char)(255 - row[0][i]);
        } else {
            memcpy(target, row[0], stride);
        }
    }
    jpeg_destroy_decompress(&cinfo);
    int streamed = decode.stream && cr_resize_stream_finish(decode.stream, 1) == 0;
    fclose(file);
    free(buffer);

    // A stream given every row makes every output row; were it not so, there would be no
    // decode kept to fall back on.
    int lost = decode.stream && !streamed;
    if (lost || (decode.damage > CR_JPEG_HARMLESS && !(keep_corrupt && decode.damage == CR_JPEG_CORRUPT))) {
        free(decode.resized);
        free(decode.pixels);
        return lost && decode.damage <= CR_JPEG_HARMLESS ? CR_JPEG_CORRUPT : decode.damage;
    }
    if (streamed) {
        image->pixels = decode.resized;
        image->width = image->resize_width;
        image->height = image->resize_height;
        image->bands = bands;
    } else if (image) {
        // Without a thread for it, or memory, the resize is done now (or not at all).
        free(decode.resized);
        hand_over(image, decode.pixels, width, height, bands);
    }
    return decode.damage;
}
