#include "CJPEGSplit.h"

#include <stdlib.h>
#include <string.h>

static unsigned int be16(const unsigned char *p) { return (unsigned int)p[0] << 8 | p[1]; }

int cr_jpeg_plan_split(const unsigned char *bytes, size_t size, CRJPEGSplit *split) {
    memset(split, 0, sizeof *split);
    if (size < 4 || bytes[0] != 0xFF || bytes[1] != 0xD8) return 0;
    size_t at = 2;
    unsigned int width = 0, height = 0, components = 0, interval = 0, max_h = 0, max_v = 0;
    size_t height_offset = 0;
    for (;;) {
        if (at + 4 > size || bytes[at] != 0xFF) return 0;
        while (at + 4 <= size && bytes[at + 1] == 0xFF) at++;
        if (at + 4 > size) return 0;
        unsigned char marker = bytes[at + 1];
        if (marker == 0xD8 || (marker >= 0xD0 && marker <= 0xD7) || marker == 0x01 || marker == 0xD9) return 0;
        size_t length = be16(bytes + at + 2);
        if (length < 2 || at + 2 + length > size) return 0;
        const unsigned char *segment = bytes + at + 4;
        size_t body = length - 2;
        if (marker == 0xC0 || marker == 0xC1) {
            if (height != 0 || body < 6 || segment[0] != 8) return 0;
            height = be16(segment + 1);
            width = be16(segment + 3);
            components = segment[5];
            if (components == 0 || components > 4 || body < 6 + 3 * (size_t)components) return 0;
            for (unsigned int c = 0; c < components; c++) {
                unsigned int h = segment[6 + 3 * c + 1] >> 4, v = segment[6 + 3 * c + 1] & 15;
                if (h == 0 || v == 0 || h > 4 || v > 4) return 0;
                if (h > max_h) max_h = h;
                if (v > max_v) max_v = v;
            }
            height_offset = at + 5;
        } else if (marker >= 0xC2 && marker <= 0xCF && marker != 0xC4 && marker != 0xC8 && marker != 0xCC) {
            // Progressive, lossless or arithmetic-coded: one scan does not hold the picture.
            return 0;
        } else if (marker == 0xDD) {
            if (body < 2) return 0;
            interval = be16(segment);
        } else if (marker == 0xDA) {
            if (height == 0 || width == 0 || body < 1 || segment[0] != components) return 0;
            at += 2 + length;
            break;
        }
        at += 2 + length;
    }
    if (interval == 0) return 0;
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
