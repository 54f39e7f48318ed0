"""A PNG screenshot as grey pixels, for decoding barcodes with zxing-cpp (no Pillow here).

Reads the 8-bit, non-interlaced RGB/RGBA/grey PNGs that Chromium writes: IHDR, the IDAT
stream, the five scanline filters.
"""

import struct
import zlib

CHANNELS = {0: 1, 2: 3, 4: 2, 6: 4}  # colour type → bytes per pixel at 8 bits


def grey_pixels(png: bytes) -> memoryview:
    """The image as a (height, width) buffer of 8-bit grey, ready for zxingcpp.read_barcodes."""
    assert png[:8] == b"\x89PNG\r\n\x1a\n", "not a PNG"
    position, data, header = 8, b"", None
    while position < len(png):
        (length,) = struct.unpack(">I", png[position : position + 4])
        kind = png[position + 4 : position + 8]
        chunk = png[position + 8 : position + 8 + length]
        if kind == b"IHDR":
            header = struct.unpack(">IIBBBBB", chunk)
        elif kind == b"IDAT":
            data += chunk
        position += 12 + length
    assert header is not None, "no IHDR chunk"
    width, height, depth, colour, _, _, interlace = header
    assert depth == 8 and interlace == 0 and colour in CHANNELS, header
    step = CHANNELS[colour]
    raw = zlib.decompress(data)
    stride = width * step
    previous = bytearray(stride)
    grey = bytearray()
    for row in range(height):
        start = row * (stride + 1)
        kind, line = raw[start], bytearray(raw[start + 1 : start + 1 + stride])
        for i in range(stride):
            left = line[i - step] if i >= step else 0
            up = previous[i]
            corner = previous[i - step] if i >= step else 0
            if kind == 1:
                line[i] = (line[i] + left) & 255
            elif kind == 2:
                line[i] = (line[i] + up) & 255
            elif kind == 3:
                line[i] = (line[i] + (left + up) // 2) & 255
            elif kind == 4:
                guess = left + up - corner
                pa, pb, pc = abs(guess - left), abs(guess - up), abs(guess - corner)
                near = left if pa <= pb and pa <= pc else up if pb <= pc else corner
                line[i] = (line[i] + near) & 255
        previous = line
        for x in range(width):
            pixel = line[x * step : x * step + min(step, 3)]
            grey.append(
                pixel[0]
                if len(pixel) < 3
                else (pixel[0] * 30 + pixel[1] * 59 + pixel[2] * 11) // 100
            )
    return memoryview(bytes(grey)).cast("B", (height, width))
