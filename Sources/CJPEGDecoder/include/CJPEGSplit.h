#ifndef CAMERAROLL_CJPEGDECODER_SPLIT_H
#define CAMERAROLL_CJPEGDECODER_SPLIT_H

#include <stddef.h>

// Where a baseline JPEG with restart markers can be cut in two along a row of MCUs, so that
// each half decodes on its own: the DC predictions start afresh after every restart marker,
// so the data after one is a scan of its own, given the file's tables and a frame as tall as
// the rows that remain.
typedef struct {
    /// Where the scan's entropy-coded data begins (after the SOS segment).
    size_t scan_start;
    /// Where the frame's height is written (two bytes, big-endian, in SOF0 or SOF1).
    size_t height_offset;
    unsigned int height;
    /// Pixel rows in an MCU row.
    unsigned int mcu_height;
    /// The MCU rows before the cut.
    unsigned int rows_before;
    /// The data after the cut: from just past the restart marker that ends the upper half.
    size_t tail_start;
    /// How many restart markers come before the cut: the tail's markers are numbered from
    /// this one (modulo 8), and must be numbered from 0 in a file of their own.
    unsigned int markers_before;
} CRJPEGSplit;

/// 1 and the cut when `bytes` is one baseline or extended-Huffman scan, of all its components,
/// with restart intervals that fall on MCU rows, and the markers in the data are exactly the
/// ones the intervals call for, in order, followed by EOI; else 0 (the file is then decoded in
/// one go, which judges any damage).
int cr_jpeg_plan_split(const unsigned char *bytes, size_t size, CRJPEGSplit *split);

/// 0 when the start of a file (its first bytes, any number) already shows it cannot be cut: a
/// file is read whole only when it may be.
int cr_jpeg_may_split(const unsigned char *start, size_t size);

/// The lower half as a JPEG of its own: the file's segments up to its scan, with the frame's
/// height made the rows' that remain, and the tail, with its restart markers renumbered from
/// 0. NULL when memory runs out; the caller frees it.
unsigned char *cr_jpeg_lower_half(const unsigned char *bytes, size_t size, const CRJPEGSplit *split, size_t *half_size);

#endif
