function nfail = test_wl_mex_stage(port, bport, big)
% TEST_WL_MEX_STAGE  A read starts before Octave has made its output array
% (octave/wlmex_rdpipe.c): the samples that arrive first wait as wire words in a stage and
% are converted once the array exists, the rest go straight into it. With the test hook
% WARPSPEED_MEX_TEST_ARRAY_DELAY_MS the array comes that late on purpose and the MEX says
% how many packets went through the stage, so each path is taken for sure: all of a small
% read staged, part of a big one (big samples, raw words and complex double), none when
% the array is made at once, and a second buffer that waits for the array. Every read is
% compared sample by sample. `warpspeed node` on 127.0.0.1:port, trigger port bport.
  global NFAIL
  NFAIL = 0;
  ip = '127.0.0.1';
  spp = 2232; maxPayload = 8964; seq = 1;
  h = wl_mex_udp_transport('init_socket');
  wl_mex_udp_transport('set_send_buf_size', h, 2^22);
  wl_mex_udp_transport('set_rcvd_buf_size', h, 2^22);
  tw = wl_cmd(1, hex2dec('30000008'), [], 0);
  tr = [wl_cmd(1, hex2dec('30000009'), [], 0), uint8(zeros(1, 20))];

  % RF_A holds big random words, RF_B 2^15 others, both captured by one trigger.
  wa = uint32(floor(rand(big, 1) * 2^32));
  wb = uint32(floor(rand(2^15, 1) * 2^32));
  write_buf(wa, 1);
  write_buf(wb, 2);
  trigger();
  [Ia, Qa] = halves(wa);
  [Ib, Qb] = halves(wb);

  % All staged: the array comes 300 ms late, long after 2^15 samples arrived.
  [x, k, np] = read_delayed(2^15, 0, uint32(2), '300');
  wl_check('stage_all', k == np && np > 0 && same_complex(x, Ib, Qb), ...
        sprintf('%d of %d packets staged', k, np));
  % Part staged: 3 ms late, while big samples are still arriving.
  [x, k, np] = read_delayed(big, 3, uint32(1), '3');
  wl_check('stage_part_raw', k > 0 && k < np && isequal(x, wa), ...
        sprintf('%d of %d packets staged, %d samples differ', k, np, sum(x ~= wa)));
  [x, k, np] = read_delayed(big, 0, uint32(1), '3');
  wl_check('stage_part_double', k > 0 && k < np && same_complex(x, Ia, Qa), ...
        sprintf('%d of %d packets staged', k, np));
  % Two buffers: the second starts once the array exists (RF_B, then RF_A).
  [x, k, np] = read_delayed(2^15, 1, uint32([2 1]), '50');
  [Ia1, Qa1] = halves(wa(1:2^15));
  wl_check('stage_two_buffers', k == np && isequal(size(x), [2^15 2]) && ...
        isequal(real(x(:, 1)), single(Ib) / 32768) && isequal(imag(x(:, 1)), single(Qb) / 32768) && ...
        isequal(real(x(:, 2)), single(Ia1) / 32768) && isequal(imag(x(:, 2)), single(Qa1) / 32768), ...
        sprintf('%d of %d packets staged, size %s', k, np, mat2str(size(x))));
  % The array made at once (no hook): the read as WARPLab's M code does it.
  unsetenv('WARPSPEED_MEX_TEST_ARRAY_DELAY_MS');
  [n, cmds, x] = wl_mex_udp_transport('read_iq', h, tr, 42, ip, port, big, uint32(1), 0, ...
                  spp * 4, ceil(big / spp), 0, uint32(zeros(1, 8)), 'ignore', 'stage');
  seq = mod(seq + cmds, 65535);
  wl_check('stage_none_double', n == big && same_complex(x, Ia, Qa), '');
  wl_mex_udp_transport('close', h);
  nfail = NFAIL;

  function write_buf(w, buf)
    tw(11:12) = wl_be(seq, 2);
    [cmds, chk] = wl_mex_udp_transport('write_iq', h, tw, maxPayload, ip, port, numel(w), ...
                   w, uint32(buf), 0, ceil(numel(w) / spp), spp, 3, 1, 3);
    seq = mod(seq + cmds, 65535);
  end

  function trigger()
    d = [uint8([0 0]), wl_be(65535, 2), wl_be(250, 2), uint8([0 0]), wl_be(4, 2), ...
         wl_be(seq, 2), wl_be(0, 2), wl_be(3, 4)];
    sent = wl_mex_udp_transport('send', h, d, numel(d), ip, bport);
    seq = seq + 1;
    wl_robust(h, ip, port, wl_cmd(seq, hex2dec('10000001'), []));
    seq = seq + 1;
  end

  function [x, k, np] = read_delayed(N, type, bufs, delay_ms)
    tr(11:12) = wl_be(seq, 2);
    [x, k, np, cmds] = read_hooked(h, tr, ip, port, N, type, bufs, spp, delay_ms);
    seq = mod(seq + cmds, 65535);
  end
end

% Not nested: evalc assigns the outputs in this function's own workspace.
function [x, k, np, cmds] = read_hooked(h, t, ip, port, N, type, bufs, spp, delay_ms)
  setenv('WARPSPEED_MEX_TEST_ARRAY_DELAY_MS', delay_ms);
  out = evalc(['[n, cmds, x] = wl_mex_udp_transport(''read_iq'', h, t, 42, ip, port, N, ' ...
               'bufs, 0, spp * 4, ceil(N / spp), type, uint32(zeros(1, 8)), ''ignore'', ''stage'');']);
  v = sscanf(out(strfind(out, 'test: ') + 6:end), '%d of %d');
  k = -1; np = -1;
  if numel(v) == 2, k = v(1); np = v(2); end
end

function ok = same_complex(x, I, Q)
  ok = isa(x, 'double') && iscomplex(x) && isequal(real(x), double(I) / 32768) && ...
       isequal(imag(x), double(Q) / 32768);
end

function [I, Q] = halves(words)
  I = reshape(typecast(uint16(bitshift(words, -16)), 'int16'), size(words));
  Q = reshape(typecast(uint16(bitand(words, 65535)), 'int16'), size(words));
end
