function nfail = test_wl_mex_loss(port, bport, pport)
% TEST_WL_MEX_LOSS  wl_mex_udp_transport through bench/iq_proxy dropping 20 % of the
% datagrams (127.0.0.1:pport) in front of `warpspeed node` (127.0.0.1:port, trigger port
% bport): a fast write
% and a read of 2^16 raw words each come back bit-exact with one warning saying what was
% recovered, as WARPLab's MEX warns on its timeouts and checksum failures, and after
% SUPPRESS_IQ_WARNINGS the same transfers warn no more. Prints PASS/FAIL lines, returns the
% number of failures.
  global NFAIL
  NFAIL = 0;
  ip = '127.0.0.1';
  spp = 2232; maxPayload = 8964; N = 2^16;
  h = wl_mex_udp_transport('init_socket');
  wl_mex_udp_transport('set_rcvd_buf_size', h, 2^22);
  words = uint32(floor(rand(N, 1) * 2^32));
  tw = wl_cmd(1, hex2dec('30000008'), [], 0);
  tr = [wl_cmd(1, hex2dec('30000009'), [], 0), uint8(zeros(1, 20))];
  for muted = 0:1
    if muted, wl_mex_udp_transport('suppress_iq_warnings'); end
    lastwarn('');
    [cmds, chk] = wl_mex_udp_transport('write_iq', h, tw, maxPayload, ip, pport, N, words, ...
                   uint32(1), 0, ceil(N / spp), spp, 3, 1, 3);
    w = lastwarn();
    wl_check(sprintf('lossy_write_warns_%d', muted), ...
          xor(muted, ~isempty(strfind(w, 'completed after recovery'))), sprintf('muted %d, last warning [%s]', muted, w));
    % TX_A to RX_A: a trigger straight to the node, then a PING behind it on its path
    d = [uint8([0 0]), wl_be(65535, 2), wl_be(250, 2), uint8([0 0]), wl_be(4, 2), ...
         wl_be(2, 2), wl_be(0, 2), wl_be(1, 4)];
    sent = wl_mex_udp_transport('send', h, d, numel(d), ip, bport);
    wl_robust(h, ip, port, wl_cmd(3, hex2dec('10000001'), []));
    lastwarn('');
    [n, cmds, x] = wl_mex_udp_transport('read_iq', h, tr, 42, ip, pport, N, uint32(1), 0, ...
                    spp * 4, ceil(N / spp), 3, uint32(zeros(1, 8)), 'ignore', 'lossy');
    w = lastwarn();
    wl_check(sprintf('lossy_read_bit_exact_%d', muted), n == N && isequal(x, words), ...
          sprintf('%d samples, %d differ', n, sum(x(:) ~= words(:))));
    wl_check(sprintf('lossy_read_warns_%d', muted), ...
          (~muted && ~isempty(strfind(w, 'lossy: Read IQ of buffer 0x1 completed after recovery'))) || ...
          (muted && isempty(w)), sprintf('muted %d, last warning [%s]', muted, w));
  end
  wl_mex_udp_transport('close', h);
  nfail = NFAIL;
end
