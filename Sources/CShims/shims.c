#define _GNU_SOURCE
#include "CShims.h"

#include <CResize.h>

#include <dlfcn.h>
#include <gmodule.h>
#include <libgen.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

void cr_vips_skip_modules(void) {
    setenv("VIPSHOME", "/nonexistent/cameraroll-loads-its-libvips-modules-itself", 1);
}

int cr_vips_load_module(const char *name) {
    Dl_info info;
    if (dladdr((void *)vips_init, &info) == 0 || info.dli_fname == NULL) return -1;
    char library[4096];
    snprintf(library, sizeof library, "%s", info.dli_fname);
    char path[4096];
    snprintf(path, sizeof path, "%s/vips-modules-%d.%d/%s", dirname(library), VIPS_MAJOR_VERSION, VIPS_MINOR_VERSION, name);
    // As libvips loads its modules: the module registers its operations, and stays.
    return g_module_open(path, G_MODULE_BIND_LAZY) == NULL ? -1 : 0;
}

static const char *cr_loader_name(CRLoader loader) {
    switch (loader) {
    case CR_LOADER_JPEG: return "jpegload";
    case CR_LOADER_PNG: return "pngload";
    case CR_LOADER_WEBP: return "webpload";
    case CR_LOADER_GIF: return "gifload";
    case CR_LOADER_HEIF: return "heifload";
    case CR_LOADER_TIFF: return "tiffload";
    }
    return NULL;
}

// The loader is built directly, never through libvips' operation cache: two requests for the
// same file at once would otherwise share one sequential image and read it out of order.
int cr_vips_load(CRLoader loader, const char *path, int shrink, int strict, VipsImage **out) {
    const char *name = cr_loader_name(loader);
    if (!name) {
        vips_error("cameraroll", "unknown loader %d", (int) loader);
        return -1;
    }
    VipsOperation *operation = vips_operation_new(name);
    if (!operation)
        return -1;
    g_object_set(operation,
        "filename", path,
        "access", VIPS_ACCESS_SEQUENTIAL,
        "fail_on", strict ? VIPS_FAIL_ON_TRUNCATED : VIPS_FAIL_ON_NONE,
        NULL);
    if (loader == CR_LOADER_JPEG)
        g_object_set(operation, "shrink", shrink, NULL);
    else if (loader == CR_LOADER_WEBP)
        g_object_set(operation, "scale", 1.0 / shrink, NULL);

    int result = vips_object_build(VIPS_OBJECT(operation));
    if (result == 0)
        g_object_get(operation, "out", out, NULL);
    vips_object_unref_outputs(VIPS_OBJECT(operation));
    g_object_unref(operation);
    return result;
}

int cr_vips_autorot(VipsImage *in, VipsImage **out) {
    return vips_autorot(in, out, NULL);
}

int cr_vips_extract_area(VipsImage *in, VipsImage **out, int left, int top, int width, int height) {
    return vips_extract_area(in, out, left, top, width, height, NULL);
}

int cr_vips_embed_copy(VipsImage *in, VipsImage **out, int width, int height) {
    return vips_embed(in, out, 0, 0, width, height, "extend", VIPS_EXTEND_COPY, NULL);
}

int cr_vips_resize(VipsImage *in, VipsImage **out, double hscale, double vscale) {
    return vips_resize(in, out, hscale, "vscale", vscale, NULL);
}

int cr_vips_icc_to_srgb(VipsImage *in, VipsImage **out, const char *fallback_profile) {
    return vips_icc_transform(in, out, "srgb",
        "embedded", TRUE,
        "input_profile", fallback_profile,
        "intent", VIPS_INTENT_RELATIVE,
        "depth", 8,
        NULL);
}

int cr_vips_colourspace(VipsImage *in, VipsImage **out, VipsInterpretation space) {
    return vips_colourspace(in, out, space, NULL);
}

int cr_vips_cast_uchar(VipsImage *in, VipsImage **out) {
    return vips_cast(in, out, VIPS_FORMAT_UCHAR, NULL);
}

int cr_vips_flatten_white(VipsImage *in, VipsImage **out) {
    VipsArrayDouble *background = vips_array_double_newv(1, 255.0);
    int result = vips_flatten(in, out, "background", background, NULL);
    vips_area_unref(VIPS_AREA(background));
    return result;
}

// Huffman optimisation is left off: it is a second pass over the coefficients that costs more
// time on a first display render than the few percent of bytes it saves.
int cr_vips_jpegsave_buffer(VipsImage *in, void **buf, size_t *len, int quality) {
    return vips_jpegsave_buffer(in, buf, len,
        "Q", quality,
        "strip", TRUE,
        NULL);
}

int cr_vips_webpsave_buffer(VipsImage *in, void **buf, size_t *len, int quality, int effort) {
    return vips_webpsave_buffer(in, buf, len,
        "Q", quality,
        "effort", effort,
        "strip", TRUE,
        NULL);
}

static void cr_discard_log(const gchar *domain, GLogLevelFlags level, const gchar *message, gpointer data) {
    (void) domain; (void) level; (void) message; (void) data;
}

// libvips and the libraries under it (libtiff, lcms) print warnings about the files they read
// straight to stderr; for untrusted uploads that is noise. Errors still come back as statuses.
void cr_vips_silence_warnings(void) {
    g_log_set_handler("VIPS", G_LOG_LEVEL_WARNING | G_LOG_LEVEL_MESSAGE | G_LOG_LEVEL_INFO, cr_discard_log, NULL);
}

int cr_vips_copy_with_orientation(VipsImage *in, VipsImage **out, int orientation) {
    if (vips_copy(in, out, NULL))
        return -1;
    vips_image_set_int(*out, VIPS_META_ORIENTATION, orientation);
    return 0;
}

static void cr_free_pixels(VipsImage *image, void *pixels) {
    (void) image;
    free(pixels);
}

VipsImage *cr_vips_image_from_pixels(unsigned char *pixels, int width, int height, int bands, VipsImage *metadata) {
    VipsImage *image = vips_image_new_from_memory(pixels, (size_t) width * height * bands, width, height, bands, VIPS_FORMAT_UCHAR);
    if (!image) {
        free(pixels);
        return NULL;
    }
    g_signal_connect(image, "postclose", G_CALLBACK(cr_free_pixels), pixels);
    image->Type = bands == 4 ? VIPS_INTERPRETATION_CMYK : bands < 3 ? VIPS_INTERPRETATION_B_W : VIPS_INTERPRETATION_sRGB;
    const void *profile;
    size_t length;
    if (metadata && vips_image_get_typeof(metadata, VIPS_META_ICC_NAME) &&
        vips_image_get_blob(metadata, VIPS_META_ICC_NAME, &profile, &length) == 0)
        vips_image_set_blob_copy(image, VIPS_META_ICC_NAME, profile, length);
    return image;
}

int cr_vips_resize_in_memory(
    VipsImage *in, VipsImage **out, int left, int top, int width, int height, int out_width, int out_height) {
    if ((in->dtype != VIPS_IMAGE_SETBUF && in->dtype != VIPS_IMAGE_SETBUF_FOREIGN) || !in->data ||
        in->BandFmt != VIPS_FORMAT_UCHAR || in->Coding != VIPS_CODING_NONE || left < 0 || top < 0 ||
        left + width > in->Xsize || top + height > in->Ysize || !cr_resize_takes(width, height, in->Bands, out_width, out_height))
        return 1;
    unsigned char *pixels = malloc((size_t) out_width * out_height * in->Bands);
    if (!pixels)
        return -1;
    if (cr_resize_lanczos3(
            VIPS_IMAGE_ADDR(in, left, top), width, height, VIPS_IMAGE_SIZEOF_LINE(in), in->Bands, pixels, out_width,
            out_height)) {
        free(pixels);
        return -1;
    }
    VipsImage *image = cr_vips_image_from_pixels(pixels, out_width, out_height, in->Bands, in);
    if (!image)
        return -1;
    image->Type = in->Type;
    *out = image;
    return 0;
}
