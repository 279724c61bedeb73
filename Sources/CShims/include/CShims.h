#ifndef CAMERAROLL_CSHIMS_H
#define CAMERAROLL_CSHIMS_H

// Fixed-arity wrappers around the few variadic libvips calls CameraRoll uses.
// Swift cannot call C variadic functions, and libvips' own binding guide
// recommends against binding its variadic API directly.

#include <vips/vips.h>

/// Keeps vips_init from loading libvips' plugin modules (ImageMagick, PDF, OpenSlide, JPEG XL,
/// HEIF): it reads VIPSHOME for their folder, so this names one that does not exist. To be called
/// before any thread starts, since it sets the environment.
void cr_vips_skip_modules(void);

/// Loads one of libvips' plugin modules (`vips-heif.so`) from the folder beside libvips itself,
/// after vips_init. Returns 0 on success.
int cr_vips_load_module(const char *name);

typedef enum {
    CR_LOADER_JPEG = 0,
    CR_LOADER_PNG = 1,
    CR_LOADER_WEBP = 2,
    CR_LOADER_GIF = 3,
    CR_LOADER_HEIF = 4,
    CR_LOADER_TIFF = 5,
} CRLoader;

/// Opens an image with exactly the loader given (never by sniffing), sequential
/// access, failing on truncation when `strict` is non-zero. `shrink` is applied
/// on load where the format supports it (JPEG: 1, 2, 4, 8; WebP: any). The first page of a multi-page file.
int cr_vips_load(CRLoader loader, const char *path, int shrink, int strict, VipsImage **out);

int cr_vips_autorot(VipsImage *in, VipsImage **out);
int cr_vips_extract_area(VipsImage *in, VipsImage **out, int left, int top, int width, int height);
int cr_vips_embed_copy(VipsImage *in, VipsImage **out, int width, int height);
int cr_vips_resize(VipsImage *in, VipsImage **out, double hscale, double vscale);
int cr_vips_icc_to_srgb(VipsImage *in, VipsImage **out, const char *fallback_profile);
int cr_vips_colourspace(VipsImage *in, VipsImage **out, VipsInterpretation space);
int cr_vips_cast_uchar(VipsImage *in, VipsImage **out);
int cr_vips_flatten_white(VipsImage *in, VipsImage **out);
int cr_vips_jpegsave_buffer(VipsImage *in, void **buf, size_t *len, int quality);
int cr_vips_webpsave_buffer(VipsImage *in, void **buf, size_t *len, int quality, int effort);
void cr_vips_silence_warnings(void);
/// A new header over the same pixels, with its EXIF orientation field set (for autorot).
int cr_vips_copy_with_orientation(VipsImage *in, VipsImage **out, int orientation);

/// A libvips image over pixels decoded elsewhere (8-bit, `bands` a pixel: grey, sRGB or CMYK),
/// which it owns and frees; the ICC profile of `metadata` (the file's header), if any, is copied to it.
/// On failure the pixels are freed and NULL is returned.
VipsImage *cr_vips_image_from_pixels(unsigned char *pixels, int width, int height, int bands, VipsImage *metadata);

/// The pixels of `in` inside (left, top, width, height) made out_width x out_height by
/// CResize's lanczos3, with in's interpretation and ICC profile. Only for what CResize takes:
/// `in` 8-bit pixels already in memory, 1 to 4 bands, a downscale that is not the same size;
/// anything else returns 1 with *out untouched, for libvips' resize. -1 when memory runs out.
int cr_vips_resize_in_memory(
    VipsImage *in, VipsImage **out, int left, int top, int width, int height, int out_width, int out_height);

#endif
