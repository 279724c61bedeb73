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

/// A plan read in pieces, so that a file need not be in memory to be planned: the segments
/// before the scan, then the scan's data, piece after piece, to its end.
typedef struct {
    CRJPEGSplit split;
    /// Where the next piece of data begins, in the file.
    size_t offset;
    unsigned long long seen, expected, markers_before;
    /// The last byte of the previous piece was 0xFF: the next piece's first byte ends a marker.
    int after_ff;
} CRJPEGPlan;

/// 1 when the file's start (`size` bytes, any number) holds the segments up to the scan and
/// they allow a cut: the plan then wants the data from `plan->offset` on. 0 when it needs more
/// of the start; -1 when the file cannot be cut.
int cr_jpeg_plan_start(const unsigned char *start, size_t size, CRJPEGPlan *plan);

/// Takes the next `size` bytes of the scan's data: 1 once the data ended where the frame calls
/// for (at EOI) with every marker the next restart marker, in order, and `plan->split` is the
/// cut; 0 when it wants more; -1 when the file cannot be cut.
int cr_jpeg_plan_data(CRJPEGPlan *plan, const unsigned char *data, size_t size);

/// 1 and the cut when `bytes` is one baseline or extended-Huffman scan, of all its components,
/// with restart intervals that fall on MCU rows, and the markers in the data are exactly the
/// ones the intervals call for, in order, followed by EOI; else 0 (the file is then decoded in
/// one go, which judges any damage).
int cr_jpeg_plan_split(const unsigned char *bytes, size_t size, CRJPEGSplit *split);

/// The lower half's own segments: the file's up to its scan (`start`, at least
/// `split->scan_start` bytes of it), with the frame's height made the rows' that remain. NULL
/// when memory runs out; the caller frees it.
unsigned char *cr_jpeg_lower_head(const unsigned char *start, const CRJPEGSplit *split);

/// The tail's restart markers renumbered from 0, piece after piece of it.
typedef struct {
    unsigned int markers_before;
    int after_ff;
    /// EOI was passed: the bytes after it are not data.
    int ended;
} CRJPEGRenumber;

void cr_jpeg_renumber(CRJPEGRenumber *renumber, unsigned char *data, size_t size);

/// The lower half as a JPEG of its own: its head and the tail, renumbered. NULL when memory
/// runs out; the caller frees it.
unsigned char *cr_jpeg_lower_half(const unsigned char *bytes, size_t size, const CRJPEGSplit *split, size_t *half_size);

#endif
