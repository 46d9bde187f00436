def xor_cipher(buf: bytearray, key: bytes) -> None:
    """XOR buf with the repeating key, in place."""
    for i in range(len(buf)):
        buf[i] ^= key[i % len(key)]


def reverse_bytes(buf):
    buf.reverse()


def to_upper_ascii(buf):
    for i, b in enumerate(buf):
        if 97 <= b <= 122:
            buf[i] = b - 32
    return buf
