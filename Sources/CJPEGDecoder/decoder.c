#include "CJPEGDecoder.h"
#include "CJPEGSplit.h"

#include <CResize.h>

#include <limits.h>
#include <pthread.h>
#include <setjmp.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>

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

/// One half of a split decode: its JPEG in memory, and the rows of the shared picture it fills.
typedef struct {
    const unsigned char *bytes;
    size_t size;
    int shrink;
    /// The first row of the picture this half writes, and how many output rows it has.
    JDIMENSION first_row;
    JDIMENSION rows;
    /// The picture: rows of `stride` bytes, `height` of them, `bands` a pixel.
    unsigned char *pixels;
    size_t stride;
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
    jpeg_mem_src(&cinfo, half->bytes, (unsigned long)half->size);
    jpeg_read_header(&cinfo, TRUE);
    cinfo.scale_num = 1;
    cinfo.scale_denom = (unsigned int)half->shrink;
    jpeg_start_decompress(&cinfo);
    if (cinfo.output_components != half->bands || cinfo.output_width < half->width) ERREXIT(&cinfo, JERR_EMPTY_IMAGE);
    JSAMPARRAY row = (*cinfo.mem->alloc_sarray)((j_common_ptr)&cinfo, JPOOL_IMAGE, cinfo.output_width * (JDIMENSION)half->bands, 1);
    int invert = cinfo.out_color_space == JCS_CMYK;
    while (cinfo.output_scanline < cinfo.output_height && cinfo.output_scanline < half->rows) {
        JDIMENSION y = half->first_row + cinfo.output_scanline;
        jpeg_read_scanlines(&cinfo, row, 1);
        if (y >= half->height) continue;
        unsigned char *target = half->pixels + (size_t)y * half->stride;
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

/// The whole file, when it is of a size to decode in halves and its start (the segments
/// before the scan, in the first 64 KB of most files) does not rule a cut out.
static unsigned char *read_whole(FILE *file, size_t smallest, size_t *size) {
    struct stat status;
    if (fstat(fileno(file), &status) != 0 || status.st_size < 4 || (size_t)status.st_size < smallest ||
        status.st_size > CR_JPEG_HALVES_LARGEST)
        return NULL;
    // The start is looked at in a buffer of its own: the whole file's is allocated only for a
    // file that may be cut (allocated first, it raised an import's peak memory by 3 MB).
    size_t whole = (size_t)status.st_size, start = whole < 64 * 1024 ? whole : 64 * 1024;
    unsigned char *first = malloc(start);
    if (!first) return NULL;
    if (fread(first, 1, start, file) != start || !cr_jpeg_may_split(first, start)) {
        free(first);
        return NULL;
    }
    unsigned char *bytes = malloc(whole);
    if (bytes) memcpy(bytes, first, start);
    free(first);
    if (!bytes || fread(bytes + start, 1, whole - start, file) != whole - start) {
        free(bytes);
        return NULL;
    }
    *size = whole;
    return bytes;
}

/// The picture decoded in two halves at once, one on a thread of its own, when the file has
/// restart markers to cut it at (`cr_jpeg_plan_split`); -1 when it has not, or its header is not
/// one libjpeg decodes alike, and then nothing is decoded. The verdict is the worse of the two
/// halves', and pixels come only when both halves were decoded to their last row.
static int decode_in_halves(
    FILE *file, size_t smallest, int shrink, long long max_pixels, int keep_corrupt, CRJPEGImage *image, char *detail,
    size_t detail_size) {
    // The scaled sizes below are exact for libjpeg's power-of-two scales only.
    if (shrink != 1 && shrink != 2 && shrink != 4 && shrink != 8) return -1;
    size_t size = 0;
    unsigned char *bytes = read_whole(file, smallest, &size);
    if (!bytes) {
        rewind(file);
        return -1;
    }
    CRJPEGSplit split;
    size_t lower_size = 0;
    unsigned char *lower = NULL;
    unsigned int width = 0;
    int bands = 0;
    if (cr_jpeg_plan_split(bytes, size, &split)) {
        // The picture's size and bands, as libjpeg reads the header.
        struct jpeg_decompress_struct cinfo;
        Decode decode;
        start_decode(&cinfo, &decode, NULL, 0);
        if (!setjmp(decode.escape)) {
            jpeg_create_decompress(&cinfo);
            jpeg_mem_src(&cinfo, bytes, (unsigned long)size);
            jpeg_read_header(&cinfo, TRUE);
            cinfo.scale_num = 1;
            cinfo.scale_denom = (unsigned int)shrink;
            jpeg_calc_output_dimensions(&cinfo);
            if (cinfo.image_height == split.height && (long long)cinfo.image_width * (long long)cinfo.image_height <= max_pixels &&
                decode.damage == CR_JPEG_WHOLE) {
                width = cinfo.image_width;
                bands = cinfo.output_components;
            }
        }
        jpeg_destroy_decompress(&cinfo);
        if (width > 0) lower = cr_jpeg_lower_half(bytes, size, &split, &lower_size);
    }
    if (!lower) {
        free(bytes);
        rewind(file);
        return -1;
    }
    JDIMENSION out_width = width / (JDIMENSION)shrink, out_height = split.height / (JDIMENSION)shrink;
    size_t stride = (size_t)out_width * (size_t)bands;
    unsigned char *pixels = out_width > 0 && out_height > 0 ? malloc(stride * out_height) : NULL;
    if (!pixels) {
        free(lower);
        free(bytes);
        rewind(file);
        return -1;
    }
    JDIMENSION upper_rows = split.rows_before * split.mcu_height / (JDIMENSION)shrink;
    Half halves[2];
    memset(halves, 0, sizeof halves);
    for (int i = 0; i < 2; i++) {
        halves[i].shrink = shrink;
        halves[i].pixels = pixels;
        halves[i].stride = stride;
        halves[i].width = out_width;
        halves[i].height = out_height;
        halves[i].bands = bands;
    }
    halves[0].bytes = bytes;
    halves[0].size = size;
    halves[0].first_row = 0;
    halves[0].rows = upper_rows;
    halves[1].bytes = lower;
    halves[1].size = lower_size;
    halves[1].first_row = upper_rows;
    halves[1].rows = (JDIMENSION)-1;
    pthread_t thread;
    int threaded = pthread_create(&thread, NULL, decode_half, &halves[1]) == 0;
    decode_half(&halves[0]);
    if (threaded) {
        pthread_join(thread, NULL);
    } else {
        decode_half(&halves[1]);
    }
    free(lower);
    free(bytes);

    // The worse half's message; of two alike, the one that has a message.
    const Half *worse = halves[1].decode.damage > halves[0].decode.damage ||
                                (halves[1].decode.damage == halves[0].decode.damage && halves[0].detail[0] == '\0')
                            ? &halves[1]
                            : &halves[0];
    CRJPEGDamage damage = worse->decode.damage;
    if (detail_size > 0) snprintf(detail, detail_size, "%s", worse->detail);
    int finished = halves[0].finished && halves[1].finished;
    if (!finished || (damage > CR_JPEG_HARMLESS && !(keep_corrupt && damage == CR_JPEG_CORRUPT))) {
        free(pixels);
        return damage == CR_JPEG_WHOLE ? CR_JPEG_CORRUPT : damage;
    }
    hand_over(image, pixels, out_width, out_height, bands);
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
