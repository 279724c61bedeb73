#include "CJPEGSplit.h"

#include <stdlib.h>
#include <string.h>

static unsigned int be16(const unsigned char *p) { return (unsigned int)p[0] << 8 | p[1]; }

/// What the segments before the scan say.
typedef struct {
    unsigned int width, height, components, interval, max_h, max_v;
    size_t height_offset;
    /// Where the scan's entropy-coded data begins.
    size_t scan_start;
} Header;

enum { NO_CUT = -1, UNSEEN = 0, SEEN = 1 };

/// SEEN and the header when the segments up to the scan's start are in `bytes` and allow a cut;
/// NO_CUT when they do not; UNSEEN when `bytes` ends before the scan does begin.
static int read_header(const unsigned char *bytes, size_t size, Header *header) {
    memset(header, 0, sizeof *header);
    if (size < 4) return UNSEEN;
    if (bytes[0] != 0xFF || bytes[1] != 0xD8) return NO_CUT;
    size_t at = 2;
    for (;;) {
        if (at + 4 > size) return UNSEEN;
        if (bytes[at] != 0xFF) return NO_CUT;
        while (at + 4 <= size && bytes[at + 1] == 0xFF) at++;
        if (at + 4 > size) return UNSEEN;
        unsigned char marker = bytes[at + 1];
        if (marker == 0xD8 || (marker >= 0xD0 && marker <= 0xD7) || marker == 0x01 || marker == 0xD9) return NO_CUT;
        size_t length = be16(bytes + at + 2);
        if (length < 2) return NO_CUT;
        if (at + 2 + length > size) return UNSEEN;
        const unsigned char *segment = bytes + at + 4;
        size_t body = length - 2;
        if (marker == 0xC0 || marker == 0xC1) {
            if (header->height != 0 || body < 6 || segment[0] != 8) return NO_CUT;
            header->height = be16(segment + 1);
            header->width = be16(segment + 3);
            header->components = segment[5];
            if (header->components == 0 || header->components > 4 || body < 6 + 3 * (size_t)header->components) return NO_CUT;
            for (unsigned int c = 0; c < header->components; c++) {
                unsigned int h = segment[6 + 3 * c + 1] >> 4, v = segment[6 + 3 * c + 1] & 15;
                if (h == 0 || v == 0 || h > 4 || v > 4) return NO_CUT;
                if (h > header->max_h) header->max_h = h;
                if (v > header->max_v) header->max_v = v;
            }
            header->height_offset = at + 5;
        } else if (marker >= 0xC2 && marker <= 0xCF && marker != 0xC4 && marker != 0xC8 && marker != 0xCC) {
            // Progressive, lossless or arithmetic-coded: one scan does not hold the picture.
            return NO_CUT;
        } else if (marker == 0xDD) {
            if (body < 2) return NO_CUT;
            header->interval = be16(segment);
        } else if (marker == 0xDA) {
            if (header->height == 0 || header->width == 0 || body < 1 || segment[0] != header->components) return NO_CUT;
            header->scan_start = at + 2 + length;
            return header->interval == 0 ? NO_CUT : SEEN;
        }
        at += 2 + length;
    }
}

int cr_jpeg_may_split(const unsigned char *start, size_t size) {
    Header header;
    return read_header(start, size, &header) != NO_CUT;
}

int cr_jpeg_plan_split(const unsigned char *bytes, size_t size, CRJPEGSplit *split) {
    memset(split, 0, sizeof *split);
    Header header;
    if (read_header(bytes, size, &header) != SEEN) return 0;
    unsigned int width = header.width, height = header.height, components = header.components, interval = header.interval;
    unsigned int max_h = header.max_h, max_v = header.max_v;
    size_t height_offset = header.height_offset, at = header.scan_start;
    // One component is scanned block by block whatever its sampling; several, MCU by MCU.
    unsigned int mcu_width = components == 1 ? 8 : 8 * max_h;
    unsigned int mcu_height = components == 1 ? 8 : 8 * max_v;
    unsigned long long per_row = (width + mcu_width - 1) / mcu_width;
    unsigned long long rows = (height + mcu_height - 1) / mcu_height;
    if (rows < 4) return 0;
    // The cut nearest the middle where a restart interval ends with an MCU row.
    unsigned long long cut = 0;
    for (unsigned long long distance = 0; distance < rows / 2 && cut == 0; distance++) {
        unsigned long long candidates[2] = {rows / 2 - distance, rows / 2 + distance};
        for (int i = 0; i < 2 && cut == 0; i++) {
            unsigned long long row = candidates[i];
            if (row >= 1 && row < rows && row * per_row % interval == 0) cut = row;
        }
    }
    if (cut == 0) return 0;
    unsigned long long markers_before = cut * per_row / interval;
    unsigned long long expected = (per_row * rows + interval - 1) / interval - 1;

    // Walk the data: every marker must be the next restart marker, until EOI.
    unsigned long long seen = 0;
    size_t tail_start = 0;
    size_t scan = at;
    for (;;) {
        const unsigned char *found = memchr(bytes + scan, 0xFF, size - scan);
        if (!found) return 0;
        size_t p = (size_t)(found - bytes);
        if (p + 1 >= size) return 0;
        unsigned char next = bytes[p + 1];
        if (next == 0x00) {
            scan = p + 2;
        } else if (next == 0xFF) {
            scan = p + 1;
        } else if (next >= 0xD0 && next <= 0xD7) {
            if ((unsigned long long)(next - 0xD0) != seen % 8) return 0;
            seen++;
            if (seen == markers_before) tail_start = p + 2;
            scan = p + 2;
        } else if (next == 0xD9) {
            break;
        } else {
            return 0;
        }
    }
    if (seen != expected || tail_start == 0) return 0;
    split->scan_start = at;
    split->height_offset = height_offset;
    split->height = height;
    split->mcu_height = mcu_height;
    split->rows_before = (unsigned int)cut;
    split->tail_start = tail_start;
    split->markers_before = (unsigned int)(markers_before % 8);
    return 1;
}

unsigned char *cr_jpeg_lower_half(const unsigned char *bytes, size_t size, const CRJPEGSplit *split, size_t *half_size) {
    size_t head = split->scan_start, tail = size - split->tail_start;
    unsigned char *half = malloc(head + tail);
    if (!half) return NULL;
    memcpy(half, bytes, head);
    unsigned int remaining = split->height - split->rows_before * split->mcu_height;
    half[split->height_offset] = (unsigned char)(remaining >> 8);
    half[split->height_offset + 1] = (unsigned char)(remaining & 0xFF);
    unsigned char *data = half + head;
    memcpy(data, bytes + split->tail_start, tail);
    // The plan checked every marker up to EOI, so each 0xFF here is stuffing, fill, a restart
    // marker or the end.
    size_t at = 0;
    for (;;) {
        unsigned char *found = memchr(data + at, 0xFF, tail - at);
        if (!found || (size_t)(found - data) + 1 >= tail) break;
        size_t p = (size_t)(found - data);
        unsigned char next = data[p + 1];
        if (next >= 0xD0 && next <= 0xD7) data[p + 1] = (unsigned char)(0xD0 + (next - 0xD0 + 8 - split->markers_before) % 8);
        if (next == 0xD9) break;
        at = next == 0xFF ? p + 1 : p + 2;
    }
    *half_size = head + tail;
    return half;
}
