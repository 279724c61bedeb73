#ifndef CAMERAROLL_CJPEGDECODER_H
#define CAMERAROLL_CJPEGDECODER_H

#include <stddef.h>

#include "CJPEGSplit.h"

// JPEG decoding by libjpeg-turbo with its verdict on the data. libjpeg reports most damage as
// warnings, which libvips can only count, and then only for the rows it asks for after the
// warning, so damage near the end of a large photo goes unseen: extraneous bytes before a
// marker leave every pixel decoded, a marker hit in the middle of the scan data leaves the rest
// of the picture grey. This reads libjpeg's own message codes, for every row, instead of text.
typedef enum {
    /// Decoded to the end without a warning.
    CR_JPEG_WHOLE = 0,
    /// Decoded to the end; the only warnings are about bytes no pixel depends on.
    CR_JPEG_HARMLESS = 1,
    /// The data ends before the picture does (premature end of the file or of the scan data).
    CR_JPEG_TRUNCATED = 2,
    /// The decoder refused the data or had to guess pixels (bad Huffman codes, lost restarts).
    CR_JPEG_CORRUPT = 3,
    /// A valid JPEG of a kind libjpeg-turbo does not decode (12-bit samples, lossless).
    CR_JPEG_UNSUPPORTED = 4,
    /// Not decoded: the file cannot be opened.
    CR_JPEG_UNCHECKED = 5,
    /// Not decoded: its header declares more pixels than allowed.
    CR_JPEG_TOO_LARGE = 6,
} CRJPEGDamage;

/// Decoded pixels, row by row without padding, `bands` bytes a pixel (1 grey, 3 RGB, 4 CMYK
/// with ink as the value). `pixels` is the caller's to free().
typedef struct {
    unsigned char *pixels;
    int width;
    int height;
    int bands;
    /// Set before the decode, a size no larger than the decode's: the pixels come resized to it
    /// by CResize's lanczos3 (`width` and `height` are then this size). A decode in one go is
    /// resized on a second thread as its rows come, so the resize costs the person waiting
    /// only its last rows.
    int resize_width;
    int resize_height;
    /// A decode in halves of at least this many pixels resizes as its upper half is decoded,
    /// holding only the lower half's rows rather than the whole decode (CR_JPEG_HALVES_STREAMED_FROM:
    /// slower on two cores, half the memory).
    long long halves_streamed_from;
    /// Set by the decode: 1 when it was done in two halves at once.
    int in_halves;
} CRJPEGImage;

/// Decodes the whole file at 1/`shrink` scale (1, 2, 4 or 8), unless its header declares more
/// than `max_pixels`. A file with restart markers to cut it at (`CJPEGSplit.h`) is decoded in
/// two halves at once, the lower one on a thread of its own: the decode of one photo is a
/// person waiting (the first display of it), and the entropy-coded data, which one thread must
/// otherwise read from end to end at any scale, is most of its time. The size is the full size divided by `shrink`, rounded down, as libvips'
/// shrink-on-load gives it. With `image` NULL the pixels are only checked (at 1/8: the
/// entropy-coded data is read in full at any scale). `image->pixels` is set only for a verdict
/// of CR_JPEG_WHOLE or CR_JPEG_HARMLESS, and with `keep_corrupt` also of CR_JPEG_CORRUPT when
/// libjpeg decoded to the end, working around the damage. libjpeg's first message about damage
/// is copied into `detail` (for logs, not for people).
/// Files smaller than `halves_from` bytes are decoded in one go (0: every file). Neither way
/// holds the file in memory.
CRJPEGDamage cr_jpeg_decode(
    const char *path, int shrink, long long max_pixels, int keep_corrupt, size_t halves_from, CRJPEGImage *image, char *detail,
    size_t detail_size);

/// Where a decode in halves that is resized holds its lower half's rows only: a 100 MP photo's
/// import holds 2.4 MB rather than 4.7 (at 1/8), while the first display of a 12 MP photo, at
/// 1/2, keeps the quicker resize on both cores.
#define CR_JPEG_HALVES_STREAMED_FROM 64000000LL
/// Where a decode in halves pays for its thread and for reading the file twice (once to plan
/// the cut).
#define CR_JPEG_HALVES_SMALLEST (256 * 1024)
/// The most of a file's start read to find its scan: past it, the file is decoded in one go.
#define CR_JPEG_HEAD_LARGEST (1024 * 1024)

#endif
