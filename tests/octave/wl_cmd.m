function d = wl_cmd(seq, cmd, args, robust, dest)
% WL_CMD  A WARPLab 7.7.1 host-to-node command datagram, as wl_transport_eth_udp builds it:
% 2-byte pad, transport header (dest, src 250, reserved 0, type 1 host->node, length,
% seq, flags ROBUST), command header (cmd, argument bytes, argument count), arguments.
  if nargin < 4, robust = 1; end
  if nargin < 5, dest = 0; end
  n = numel(args);
  d = [uint8([0 0]), wl_be(dest, 2), wl_be(250, 2), uint8([0 1]), wl_be(8 + 4 * n, 2), ...
       wl_be(seq, 2), wl_be(robust, 2), wl_be(cmd, 4), wl_be(4 * n, 2), wl_be(n, 2), ...
       wl_be(args, 4)];
end
