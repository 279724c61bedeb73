#ifndef CAMERAROLL_CRESIZE_H
#define CAMERAROLL_CRESIZE_H

#include <stddef.h>

// A downscale of 8-bit pixels with the lanczos3 kernel libvips' resize uses, made for the one
// case that is most of our renders: a JPEG decoded into memory, made a display size or a
// thumbnail. libvips 8.14 reduces horizontally with scalar code that costs more than the decode
// itself; this runs the horizontal pass with SSSE3 (one output pixel's channels in one register)
// and the vertical pass over whole rows, one output row at a time, so nothing but a row and the
// output is held besides the input (and a stream holds only the input rows still to be read).

/// Resizes `width`x`height` pixels of `bands` bytes each (1 to 4), rows `stride` bytes apart,
/// to `out_width`x`out_height`, which may be no larger on either side. The output is written to
/// `out`, rows without padding. Returns 0, or -1 for sizes it does not take or when memory runs
/// out (and `out` is then unchanged).
int cr_resize_lanczos3(
    const unsigned char *pixels, int width, int height, size_t stride, int bands, unsigned char *out, int out_width,
    int out_height);

/// 1 when a resize from `width` x `height` pixels of `bands` bytes to `out_width` x `out_height`
/// is one `cr_resize_lanczos3` takes and makes smaller on a side; else 0.
int cr_resize_takes(int width, int height, int bands, int out_width, int out_height);

/// A resize that runs on a thread of its own while the input is still being made, top to
/// bottom: each output row is made as soon as the input rows it reads are there. The input is
/// written into the stream's own ring of rows, which holds only the rows the resize still
/// reads (a few dozen), never the whole picture.
typedef struct CRResizeStream CRResizeStream;

/// Starts resizing `width`x`height` pixels of `bands` bytes each as `cr_resize_lanczos3` would,
/// with no input row there yet; NULL when the sizes are not ones it takes or memory or a thread
/// cannot be had (and nothing is started).
CRResizeStream *cr_resize_stream_start(int width, int height, int bands, unsigned char *out, int out_width, int out_height);

/// Where input row `y` is to be written (`width * bands` bytes), rows given in order from the
/// top; every row before `y` counts as written. Waits while the resize still reads the row the
/// ring kept in that place.
unsigned char *cr_resize_stream_row(CRResizeStream *stream, int y);

/// Waits for the resize to end and frees the stream: 0 when `out` is whole. With `complete` 0
/// the input will not be finished: the resize stops where it is, and -1 is returned.
int cr_resize_stream_finish(CRResizeStream *stream, int complete);

#endif
