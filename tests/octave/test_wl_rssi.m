function nfail = test_wl_rssi(port, tag)
% TEST_WL_RSSI  READ_RSSI through whichever wl_mex_udp_transport is first on the path
% (warpspeed's, or WARPLab 7.7.1's own built from its source), against `warpspeed node` on
% 127.0.0.1:port, called as wl_baseband_buffers' readRSSI calls it through
% wl_transport_eth_udp_mex.read_buffers: a READ_RSSI template, type 0 (double), the
% IQ-ID tracker, N words giving 2N values per buffer, high half of each word first. The
% node's RSSI value k of RF interface rf (A = 0 .. D = 3) is mod(5k + 200 rf, 1024)
% (src/iq/node/node_mem.c), so every value is known. Each RF alone, all four in one call,
% and a start that is not 0, over several packets. Checks are named
% octave_mex_rssi_TAG_...; prints PASS/FAIL lines, returns the number of failures.
  global NFAIL
  NFAIL = 0;
  ip = '127.0.0.1';
  spp = 2232;                        % jumbo: 8928 bytes of words per packet
  h = wl_mex_udp_transport('init_socket');
  wl_mex_udp_transport('set_rcvd_buf_size', h, 2^22);
  seq = 1;
  rfs = 'ABCD';
  N = 3001;                          % words: 2 packets and one word
  for b = 0:3
    [n, cmds, x] = rssi(N, uint32(2^b), 0);
    wl_check(sprintf('rssi_%s_rf_%s', tag, rfs(b + 1)), n == N && cmds >= 1 && ...
      isequal(size(x), [2 * N, 1]) && isequal(x, expect(b, 0, 2 * N)), ...
      detail(n, cmds, x, expect(b, 0, 2 * N)));
  end
  % All four interfaces in one call, from word 777 (value 1554) on.
  start = 777;
  [n, cmds, x] = rssi(N, uint32([1 2 4 8]), start);
  want = [expect(0, start, 2 * N), expect(1, start, 2 * N), expect(2, start, 2 * N), ...
          expect(3, start, 2 * N)];
  wl_check(sprintf('rssi_%s_rf_abcd_from_777', tag), n == N && isequal(size(x), [2 * N, 4]) ...
    && isequal(x, want), detail(n, cmds, x, want));
  wl_mex_udp_transport('close', h);
  nfail = NFAIL;

  function [n, cmds, x] = rssi(NN, bufs, start)
    % wl_transport_eth_udp_mex.read_buffers: transport header (seq, ROBUST clear, length
    % 28), READ_RSSI header with command length and num_args 0, 5 words of room.
    t = [wl_cmd(seq, hex2dec('3000000A'), [], 0), uint8(zeros(1, 20))];
    t(9:10) = wl_be(28, 2);
    t(19:20) = 0;
    [n, cmds, x] = wl_mex_udp_transport('read_rssi', h, t, 42, ip, port, NN, bufs, start, ...
      spp * 4, ceil(NN / spp), 0, uint32(zeros(1, 8)), 'ignore', 'W3-a-00006 (ID =   1)');
    seq = mod(seq + cmds, 65535);
  end
end

function v = expect(rf, start_word, count)
  v = mod(5 * (2 * start_word + (0:count - 1)') + 200 * rf, 1024);
end

function s = detail(n, cmds, x, want)
  s = sprintf('n %d, cmds %d, class %s, size %s', n, cmds, class(x), mat2str(size(x)));
  if isequal(size(x), size(want))
    k = find(x(:) ~= want(:), 1);
    if ~isempty(k)
      s = sprintf('%s; first difference at element %d: %g, want %g', s, k, x(k), want(k));
    end
  end
end
