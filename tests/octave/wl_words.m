function w = wl_words(b)
% WL_WORDS  Big-endian 32-bit words of a uint8 vector (length a multiple of 4), as double.
  b = double(b(:).');
  w = b(1:4:end) * 16777216 + b(2:4:end) * 65536 + b(3:4:end) * 256 + b(4:4:end);
end
