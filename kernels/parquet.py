"""Parquet encodings as kernels: the loops ``bower.sim.records_parquet`` runs on the records worker threads.

Each fills a caller's ``uint8`` buffer and returns how many bytes it wrote,
without the GIL: the RLE / bit-packed hybrid of flat values (``hybrid``),
a list column's repetition levels as one bit-packed run (``rep_levels``)
and its definition levels as RLE runs (``def_runs``), dictionary indices
as one bit-packed run (``pack``), and the dictionary of a small-range int
column (``int_dictionary``); ``varint`` writes a ULEB128 number.
"""

import numpy as np

from bower.kernels.jit import kernel


@kernel(inline="always")
def _spill(out, pos, acc, nbits):
    """Write the whole bytes of the bit accumulator ``acc`` (``nbits`` bits, low first) at ``out[pos:]``;
    returns (pos, acc, nbits) after them."""
    while nbits >= 8:
        out[pos] = acc & np.uint64(0xFF)
        pos += 1
        acc >>= np.uint64(8)
        nbits -= 8
    return pos, acc, nbits


@kernel(inline="always")
def _finish(out, pos, acc, nbits, end):
    """Write the accumulator's last part byte (fewer than 8 bits) and zeros up to ``end``; returns the end."""
    if nbits:
        out[pos] = acc & np.uint64(0xFF)
        pos += 1
    while pos < end:
        out[pos] = 0
        pos += 1
    return pos


@kernel
def hybrid(values, bw, out):
    """The RLE / bit-packed hybrid encoding of ``values`` (each < 2**bw, bw <= 32) into ``out``; returns its size.

    A run of 8 or more equal values is one RLE run; the rest goes in
    bit-packed sections of up to 63 groups of 8 (the last group padded
    with zeros).
    """
    n = values.shape[0]
    vbytes = (bw + 7) // 8
    pos = 0
    i = 0
    while i < n:
        v = values[i]
        j = i + 1
        while j < n and values[j] == v:
            j += 1
        if j - i >= 8:
            h = (j - i) << 1
            while h >= 0x80:
                out[pos] = (h & 0x7F) | 0x80
                pos += 1
                h >>= 7
            out[pos] = h
            pos += 1
            for k in range(vbytes):
                out[pos] = (v >> (8 * k)) & 0xFF
                pos += 1
            i = j
            continue
        head = pos
        pos += 1
        groups = 0
        while True:
            if bw <= 8 and i + 8 <= n:  # a whole group: 8 values, bw bytes
                acc = np.uint64(0)
                for k in range(8):
                    acc |= np.uint64(values[i + k]) << np.uint64(k * bw)
                for k in range(bw):
                    out[pos + k] = (acc >> np.uint64(8 * k)) & np.uint64(0xFF)
                pos += bw
            else:
                acc = np.uint64(0)
                nbits = 0
                for k in range(8):
                    x = np.uint64(values[i + k]) if i + k < n else np.uint64(0)
                    acc |= x << np.uint64(nbits)
                    nbits += bw
                    pos, acc, nbits = _spill(out, pos, acc, nbits)
            i += 8
            groups += 1
            if i >= n or groups == 63:
                break
            if i + 8 <= n and values[i] == values[i + 7]:  # maybe a run: end the section if it is one
                v = values[i]
                j = i + 1
                while j < i + 8 and values[j] == v:
                    j += 1
                if j == i + 8:
                    break
        out[head] = (groups << 1) | 1
    return pos


@kernel
def varint(out, pos, x):
    """``x`` as an unsigned LEB128 varint at ``out[pos:]``; returns the position after it."""
    while x >= 0x80:
        out[pos] = (x & 0x7F) | 0x80
        pos += 1
        x >>= 7
    out[pos] = x
    return pos + 1


@kernel
def rep_levels(offsets, width, out):
    """The repetition levels of a list column as one bit-packed run in ``out``; returns the bytes written.

    ``width`` 1: a list (a row's first element 0, the next ones 1, one bit
    each); 2: a list of ``[seat, value]`` pairs (0 or 1 for a pair's first
    value, 2 for its second, two bits each: a pair is the nibble 0b1000 or
    0b1001). An empty row is one entry, 0.
    """
    n = offsets.shape[0] - 1
    m = 0
    for i in range(n):
        c = offsets[i + 1] - offsets[i]
        m += c * width if c > 0 else 1
    groups = (m + 7) // 8
    pos = varint(out, 0, (groups << 1) | 1)
    end = pos + groups * width
    acc = np.uint64(0)
    nbits = 0
    for i in range(n):
        c = offsets[i + 1] - offsets[i]
        if c == 0:
            nbits += width
        elif width == 1:
            for j in range(c):
                if j:
                    acc |= np.uint64(1) << np.uint64(nbits)
                nbits += 1
                if nbits >= 56:
                    pos, acc, nbits = _spill(out, pos, acc, nbits)
        else:
            for j in range(c):
                acc |= np.uint64(9 if j else 8) << np.uint64(nbits)
                nbits += 4
                if nbits >= 56:
                    pos, acc, nbits = _spill(out, pos, acc, nbits)
        pos, acc, nbits = _spill(out, pos, acc, nbits)
    return _finish(out, pos, acc, nbits, end)


@kernel
def def_runs(offsets, width, empty_def, full_def, vbytes, out):
    """The definition levels of a list column as RLE runs in ``out``; returns the bytes written.

    A non-empty row's ``c * width`` entries are at ``full_def``, an empty
    row's one entry at ``empty_def``; equal neighbours make one run.
    """
    pos = 0
    value = -1
    run = 0
    for i in range(offsets.shape[0] - 1):
        c = offsets[i + 1] - offsets[i]
        v = full_def if c > 0 else empty_def
        k = c * width if c > 0 else 1
        if v == value:
            run += k
            continue
        if run:
            pos = varint(out, pos, run << 1)
            for b in range(vbytes):
                out[pos] = (value >> (8 * b)) & 0xFF
                pos += 1
        value = v
        run = k
    if run:
        pos = varint(out, pos, run << 1)
        for b in range(vbytes):
            out[pos] = (value >> (8 * b)) & 0xFF
            pos += 1
    return pos


@kernel
def pack(first, second, shift, bw, out):
    """Values as one bit-packed run of ``bw`` bits each in ``out``; returns the bytes written.

    ``second`` empty: the values are ``first``; else they alternate,
    ``first[j]`` then ``shift + second[j]`` (a pair's seat and name index).
    """
    n = first.shape[0]
    m = n * 2 if second.shape[0] else n
    groups = (m + 7) // 8
    pos = varint(out, 0, (groups << 1) | 1)
    end = pos + groups * bw
    acc = np.uint64(0)
    nbits = 0
    for j in range(n):
        acc |= np.uint64(first[j]) << np.uint64(nbits)
        nbits += bw
        if second.shape[0]:
            pos, acc, nbits = _spill(out, pos, acc, nbits)
            acc |= np.uint64(second[j] + shift) << np.uint64(nbits)
            nbits += bw
        pos, acc, nbits = _spill(out, pos, acc, nbits)
    return _finish(out, pos, acc, nbits, end)


@kernel
def int_dictionary(values, max_range, lut, idx):
    """Dictionary encoding of ints of a small range: (low, high, size); ``idx`` the indices, ``lut`` by value - low.

    Size 0 (nothing done) when the range is ``max_range`` or more. The
    dictionary is the values present, ascending (``low + k`` where
    ``lut[k] >= 0``).
    """
    n = values.shape[0]
    if n == 0:
        return 0, 0, 0
    lo = values[0]
    hi = values[0]
    for i in range(n):
        v = values[i]
        if v < lo:
            lo = v
        if v > hi:
            hi = v
    if hi - lo >= max_range:
        return lo, hi, 0
    span = hi - lo + 1
    for k in range(span):
        lut[k] = 0
    for i in range(n):
        lut[values[i] - lo] = 1
    size = 0
    for k in range(span):
        if lut[k]:
            lut[k] = size
            size += 1
        else:
            lut[k] = -1
    for i in range(n):
        idx[i] = lut[values[i] - lo]
    return lo, hi, size
