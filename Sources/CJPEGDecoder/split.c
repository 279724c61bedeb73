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

int cr_jpeg_plan_start(const unsigned char *start, size_t size, CRJPEGPlan *plan) {
    memset(plan, 0, sizeof *plan);
    Header header;
    int seen = read_header(start, size, &header);
    if (seen != SEEN) return seen == UNSEEN ? 0 : -1;
    unsigned int width = header.width, height = header.height, components = header.components, interval = header.interval;
    // One component is scanned block by block whatever its sampling; several, MCU by MCU.
    unsigned int mcu_width = components == 1 ? 8 : 8 * header.max_h;
    unsigned int mcu_height = components == 1 ? 8 : 8 * header.max_v;
    unsigned long long per_row = (width + mcu_width - 1) / mcu_width;
    unsigned long long rows = (height + mcu_height - 1) / mcu_height;
    if (rows < 4) return -1;
    // The cut nearest the middle where a restart interval ends with an MCU row.
    unsigned long long cut = 0;
    for (unsigned long long distance = 0; distance < rows / 2 && cut == 0; distance++) {
        unsigned long long candidates[2] = {rows / 2 - distance, rows / 2 + distance};
        for (int i = 0; i < 2 && cut == 0; i++) {
            unsigned long long row = candidates[i];
            if (row >= 1 && row < rows && row * per_row % interval == 0) cut = row;
        }
    }
    if (cut == 0) return -1;
    plan->markers_before = cut * per_row / interval;
    plan->expected = (per_row * rows + interval - 1) / interval - 1;
    plan->offset = header.scan_start;
    plan->split.scan_start = header.scan_start;
    plan->split.height_offset = header.height_offset;
    plan->split.height = height;
    plan->split.mcu_height = mcu_height;
    plan->split.rows_before = (unsigned int)cut;
    plan->split.markers_before = (unsigned int)(plan->markers_before % 8);
    return 1;
}

/// Where the next byte after an 0xFF (a marker's second byte) is in `data`, from `at` on: `at`
/// itself when the byte before it was one (`*after_ff`, carried from the piece before); `size`
/// when the piece has no more, with `*after_ff` set when its last byte is an 0xFF.
static size_t next_marker(const unsigned char *data, size_t size, size_t at, int *after_ff) {
    if (*after_ff || at >= size) return at < size ? at : size;
    const unsigned char *found = memchr(data + at, 0xFF, size - at);
    if (!found) return size;
    *after_ff = 1;
    return (size_t)(found - data) + 1;
}

int cr_jpeg_plan_data(CRJPEGPlan *plan, const unsigned char *data, size_t size) {
    for (size_t at = next_marker(data, size, 0, &plan->after_ff); at < size;
         at = next_marker(data, size, at + 1, &plan->after_ff)) {
        // Stuffing, fill, the next restart marker or the end: nothing else may be in the data.
        unsigned char next = data[at];
        plan->after_ff = next == 0xFF;
        if (next >= 0xD0 && next <= 0xD7) {
            if ((unsigned long long)(next - 0xD0) != plan->seen % 8) return -1;
            plan->seen++;
            if (plan->seen == plan->markers_before) plan->split.tail_start = plan->offset + at + 1;
        } else if (next == 0xD9) {
            plan->offset += at + 1;
            return plan->seen == plan->expected && plan->split.tail_start != 0 ? 1 : -1;
        } else if (next != 0x00 && next != 0xFF) {
            return -1;
        }
    }
    plan->offset += size;
    return 0;
}

int cr_jpeg_plan_split(const unsigned char *bytes, size_t size, CRJPEGSplit *split) {
    memset(split, 0, sizeof *split);
    CRJPEGPlan plan;
    if (cr_jpeg_plan_start(bytes, size, &plan) != 1 || cr_jpeg_plan_data(&plan, bytes + plan.offset, size - plan.offset) != 1) return 0;
    *split = plan.split;
    return 1;
}

unsigned char *cr_jpeg_lower_head(const unsigned char *start, const CRJPEGSplit *split) {
    unsigned char *head = malloc(split->scan_start);
    if (!head) return NULL;
    memcpy(head, start, split->scan_start);
    unsigned int remaining = split->height - split->rows_before * split->mcu_height;
    head[split->height_offset] = (unsigned char)(remaining >> 8);
    head[split->height_offset + 1] = (unsigned char)(remaining & 0xFF);
    return head;
}

void cr_jpeg_renumber(CRJPEGRenumber *renumber, unsigned char *data, size_t size) {
    // The plan checked every marker up to EOI, so each 0xFF here is stuffing, fill, a restart
    // marker or the end.
    for (size_t at = next_marker(data, size, 0, &renumber->after_ff); at < size && !renumber->ended;
         at = next_marker(data, size, at + 1, &renumber->after_ff)) {
        unsigned char next = data[at];
        renumber->after_ff = next == 0xFF;
        if (next >= 0xD0 && next <= 0xD7) data[at] = (unsigned char)(0xD0 + (next - 0xD0 + 8 - renumber->markers_before) % 8);
        renumber->ended = next == 0xD9;
    }
}

unsigned char *cr_jpeg_lower_half(const unsigned char *bytes, size_t size, const CRJPEGSplit *split, size_t *half_size) {
    size_t head = split->scan_start, tail = size - split->tail_start;
    unsigned char *half = cr_jpeg_lower_head(bytes, split);
    unsigned char *whole = half ? realloc(half, head + tail) : NULL;
    if (!whole) {
        free(half);
        return NULL;
    }
    memcpy(whole + head, bytes + split->tail_start, tail);
    CRJPEGRenumber renumber = {.markers_before = split->markers_before};
    cr_jpeg_renumber(&renumber, whole + head, tail);
    *half_size = head + tail;
    return whole;
}
