function mex_bench(ip, port, sizes, trials, type)
% MEX_BENCH  wl_benchmark's timing of read_IQ and write_IQ through wl_mex_udp_transport:
% per size, trials + 5 calls of each, tic/toc around the whole MEX call, the first 5
% dropped, Mb/s = N * nbuf * 32 / mean / 1e6 (nbuf = 1). Writes send real zeros(N, 1) as
% wl_benchmark does; reads ask for data type `type` (0 double, as WARPLab's M code).
% Prints one line per size: "N write_ms write_mbps read_ms read_mbps".
  if nargin < 5, type = 0; end
  h = wl_mex_udp_transport('init_socket');
  wl_mex_udp_transport('set_so_timeout', h, 1);
  wl_mex_udp_transport('set_send_buf_size', h, 2^22);
  wl_mex_udp_transport('set_rcvd_buf_size', h, 2^22);
  spp = 2232; maxPayload = 8964; seq = 1;
  tw = [wl_cmd(seq, hex2dec('30000008'), [], 0)];
  % 42 bytes go out; WARPLab's own MEX writes its read IQ ID at bytes 42-45, so 4 more.
  tr = [wl_cmd(seq, hex2dec('30000009'), [], 0), uint8(zeros(1, 24))];
  for N = sizes
    x = zeros(N, 1);
    t = zeros(1, trials + 5);
    for k = 1:trials + 5
      tic;
      [cmds, chk] = wl_mex_udp_transport('write_iq', h, tw, maxPayload, ip, port, N, x, ...
                     uint32(1), 0, ceil(N / spp), spp, 3, 1, 0);
      t(k) = toc;
      seq = mod(seq + cmds, 65535); tw(11:12) = [floor(seq / 256), mod(seq, 256)];
    end
    wt = mean(t(6:end));
    clear x;
    for k = 1:trials + 5
      tic;
      [n, cmds, y] = wl_mex_udp_transport('read_iq', h, tr, 42, ip, port, N, uint32(1), 0, ...
                      spp * 4, ceil(N / spp), type, uint32(zeros(1, 8)), 'ignore', 'bench');
      t(k) = toc;
      clear y;
      seq = mod(seq + cmds, 65535); tr(11:12) = [floor(seq / 256), mod(seq, 256)];
    end
    rt = mean(t(6:end));
    printf('%d %.3f %.2f %.3f %.2f\n', N, 1e3 * wt, N * 32 / wt / 1e6, 1e3 * rt, ...
           N * 32 / rt / 1e6);
    fflush(stdout);
  end
  wl_mex_udp_transport('close', h);
end
