function b = wl_be(v, nbytes)
% WL_BE  Big-endian bytes (uint8 row) of the values v, nbytes (2 or 4) each.
  v = uint32(v(:).');
  b = uint8(zeros(nbytes, numel(v)));
  for k = 1:nbytes
    b(k, :) = bitand(bitshift(v, -8 * (nbytes - k)), 255);
  end
  b = b(:).';
end
