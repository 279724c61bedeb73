#include "CJPEGDecoder.h"

#include <setjmp.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include <jpeglib.h>
#include <jerror.h>

enum { READ_BUFFER = 256 * 1024 };

typedef struct {
    struct jpeg_error_mgr pub;
    jmp_buf escape;
    CRJPEGDamage damage;
    char *detail;
    size_t detail_size;
    // Kept here rather than in a local, so that it is still known after a longjmp.
    unsigned char *pixels;
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

CRJPEGDamage cr_jpeg_decode(
    const char *path, int shrink, long long max_pixels, int keep_corrupt, CRJPEGImage *image, char *detail, size_t detail_size) {
    if (detail_size > 0) detail[0] = '\0';
    FILE *file = fopen(path, "rbe");
    if (!file) return CR_JPEG_UNCHECKED;
    // libjpeg asks stdio for 4 KB at a time: read(2)s of that size were a twentieth of a
    // thumbnail's time. (Mapping the file instead would count all of it in the process's memory.)
    char *buffer = malloc(READ_BUFFER);
    if (buffer) setvbuf(file, buffer, _IOFBF, READ_BUFFER);

    struct jpeg_decompress_struct cinfo;
    Decode decode;
    memset(&decode, 0, sizeof decode);
    cinfo.err = jpeg_std_error(&decode.pub);
    decode.pub.error_exit = on_error;
    decode.pub.emit_message = on_message;
    decode.pub.output_message = silent;
    decode.damage = CR_JPEG_WHOLE;
    decode.detail = detail;
    decode.detail_size = detail_size;

    if (setjmp(decode.escape)) {
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
        decode.pixels = malloc(stride * height);
        if (!decode.pixels) ERREXIT1(&cinfo, JERR_OUT_OF_MEMORY, 0);
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
        unsigned char *target = decode.pixels + (size_t)y * stride;
        if (invert) {
            for (size_t i = 0; i < stride; i++) target[i] = (unsigned char)(255 - row[0][i]);
        } else {
            memcpy(target, row[0], stride);
        }
    }
    jpeg_destroy_decompress(&cinfo);
    fclose(file);
    free(buffer);

    if (decode.damage > CR_JPEG_HARMLESS && !(keep_corrupt && decode.damage == CR_JPEG_CORRUPT)) {
        free(decode.pixels);
        return decode.damage;
    }
    if (image) {
        image->pixels = decode.pixels;
        image->width = (int)width;
        image->height = (int)height;
        image->bands = bands;
    }
    return decode.damage;
}
