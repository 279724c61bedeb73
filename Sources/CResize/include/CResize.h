#ifndef CAMERAROLL_CRESIZE_H
#define CAMERAROLL_CRESIZE_H

#include <stddef.h>

// A downscale of 8-bit pixels with the lanczos3 kernel libvips' resize uses, made for the one
// case that is most of our renders: a JPEG decoded into memory, made a display size or a
// thumbnail. libvips 8.14 reduces horizontally with scalar code that costs more than the decode
// itself; this runs the horizontal pass with SSSE3 (one output pixel's channels in one register)
// and the vertical pass over whole rows, one output row at a time, so nothing but a row and the
// output is held besides the input.

/// Resizes `width`x`height` pixels of `bands` bytes each (1 to 4), rows `stride` bytes apart,
/// to `out_width`x`out_height`, which may be no larger on either side. The output is written to
/// `out`, rows without padding. Returns 0, or -1 for sizes it does not take or when memory runs
/// out (and `out` is then unchanged).
int cr_resize_lanczos3(
    const unsigned char *pixels, int width, int height, size_t stride, int bands, unsigned char *out, int out_width,
    int out_height);

#endif
