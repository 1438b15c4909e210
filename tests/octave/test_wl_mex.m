function nfail = test_wl_mex(port, bport, sizes, big, big_types)
% TEST_WL_MEX  warpspeed's wl_mex_udp_transport against `warpspeed node` on 127.0.0.1:port
% (broadcast/trigger port bport), called exactly as WARPLab 7.7.1's M classes call it.
% sizes: sample counts checked in every data type; big: one larger count, checked in the
% types listed in big_types (0 double, 1 single, 2 int16, 3 raw). Prints PASS/FAIL lines,
% returns the number of failures.
  global NFAIL
  NFAIL = 0;
  ip = '127.0.0.1';
  spp = 2232; maxPayload = 8964;           % jumbo: what the payload size test finds

  % wl_setup / checkSetup: VERSION parsed '%d.%d.%d%c', 1.0.4 and a letter >= 'a'
  v = wl_mex_udp_transport('version');
  vv = sscanf(v, '%d.%d.%d%c');
  wl_check('version_parses', numel(vv) >= 4 && isequal(vv(1:3).', [1 0 4]) && vv(4) >= 'a' ...
        && ~isempty(strfind(v, 'warpspeed')), v);
  want = getenv('WS_VERSION');          % the build's one version (make -s version)
  if ~isempty(want)
    wl_check('version_is_the_build', strcmp(v, ['1.0.4w warpspeed ' want]), v);
  end

  % wl_transport_eth_udp_mex.open
  h = wl_mex_udp_transport('init_socket');
  wl_mex_udp_transport('set_so_timeout', h, 1);
  wl_mex_udp_transport('set_send_buf_size', h, 2^22);
  wl_mex_udp_transport('set_rcvd_buf_size', h, 2^22);
  rb = wl_mex_udp_transport('get_rcvd_buf_size', h);
  sb = wl_mex_udp_transport('get_send_buf_size', h);
  rmax = sysctl_value('/proc/sys/net/core/rmem_max');
  wmax = sysctl_value('/proc/sys/net/core/wmem_max');
  wl_check('init_socket_buffers', isa(h, 'double') && rb == 2 * min(2^22, rmax) && ...
        sb == 2 * min(2^22, wmax), sprintf('h %g rcv %g snd %g', h, rb, sb));

  seq = 1;
  % PING: an empty reply with the IDs swapped and the same seq
  [r, w] = wl_robust(h, ip, port, wl_cmd(seq, hex2dec('10000001'), []));
  wl_check('ping', numel(r) == 22 && isempty(w) && isequal(r(7:8).', uint8([0 2])) && ...
        wl_words(r(15:18)) == hex2dec('10000001'), sprintf('%d bytes', numel(r)));
  seq = seq + 1;
  % NODE_INFO: 13 words, serial 6 (W3-a-00006), WARPLab 7.7.1 on hardware v3
  [r, w] = wl_robust(h, ip, port, wl_cmd(seq, 2, []));
  wl_check('node_info', numel(w) == 13 && w(1) == 6 && w(6) == 3 * 2^24 + 7 * 2^16 + 7 * 2^8 + 1, ...
        sprintf('%d words, serial %g, version 0x%08x', numel(w), w(1), w(min(6, end))));
  seq = seq + 1;
  % PAYLOAD_SIZE_TEST: args 1..N, answer 4 * N + 20 (8964 with jumbo frames)
  na = (maxPayload - 20) / 4;
  [r, w] = wl_robust(h, ip, port, wl_cmd(seq, hex2dec('10000002'), 1:na));
  wl_check('payload_size_test', isequal(w, maxPayload), sprintf('%g', w));
  seq = seq + 1;

  % write_iq with the checksum ack: the node's WRITE_IQ_CHECKSUM equals chk
  N = 2^15;
  words = uint32(randi([0 2^32 - 1], N, 1));
  [cmds, chk] = write(words, 3);
  [r, w] = wl_robust(h, ip, port, wl_cmd(seq, hex2dec('3000000C'), []));
  seq = seq + 1;
  want = fletcher(words, 0, spp);
  wl_check('write_iq_checksum', cmds == ceil(N / spp) + 1 && isequal(chk, want) && ...
        isequal(w, want), sprintf('cmds %g chk %g host %g node %g', cmds, chk, want, w(1)));
  trigger();
  tracker = uint32(zeros(1, 8));
  [n, cmds, x] = read(N, 3, tracker, 'error');
  wl_check('trigger_read_iq_raw', n == N && isa(x, 'uint32') && isequal(x, words), ...
        sprintf('n %g, %d samples differ', n, sum(x(:) ~= words(:))));
  wl_check('iq_id_tracker_updated_in_place', tracker(1) > 0 && all(tracker(2:8) == 0), ...
        mat2str(tracker));
  % the same capture read again: severity 'warning' warns, 'error' raises
  lastwarn('');
  read(N, 3, tracker, 'warning');
  [msg, id] = lastwarn();
  wl_check('iq_id_repeat_warning', strcmp(id, 'WARPLab:MEX_UDP_TRANSPORT') && ...
        ~isempty(strfind(msg, 'W3-a-00006 (ID =   1): Read IQ of RF_A returned IQ ID')), msg);
  expect_error('iq_id_repeat_error', 3, @() read(N, 3, tracker, 'error'), ...
               ['wl_mex_udp_transport: READ_IQ: W3-a-00006 (ID =   1): Read IQ of RF_A ' ...
                'returned IQ ID ' num2str(tracker(1)) ' again: no new capture since the ' ...
                'last read'], 'WARPLab:MEX_UDP_TRANSPORT');
  t = tracker; read(N, 3, t, 'ignore');
  wl_check('iq_id_repeat_ignore', true, '');

  % bit-exact in every data type
  for N = sizes
    roundtrip(N, 0:3, 0:3);
  end
  if big > 0
    roundtrip(big, big_types, big_types);
  end

  % two buffers in one call, in the order asked (RF_B then RF_A)
  N = 2^12;
  wa = uint32(randi([0 2^32 - 1], N, 1)); wb = uint32(randi([0 2^32 - 1], N, 1));
  write([wa wb], 3, uint32([1 2]));
  trigger();
  [n, cmds, x] = read(N, 3, uint32(zeros(1, 8)), 'ignore', uint32([2 1]));
  wl_check('two_buffers', isequal(size(x), [N 2]) && isequal(x, [wb wa]), '');
  [n, cmds, x] = read(0, 0, uint32(zeros(1, 8)), 'ignore');
  wl_check('read_zero_samples', n == 0 && cmds == 0 && isequal(size(x), [0 0]), '');

  errors(h, ip, port, maxPayload, spp, tmpl(hex2dec('30000008'), 8), ...
         [tmpl(hex2dec('30000009'), 28), uint8(zeros(1, 20))], wl_cmd(seq, hex2dec('10000001'), []));
  wl_mex_udp_transport('close', h);
  wl_mex_udp_transport('close', h);        % a closed slot is ignored
  nfail = NFAIL;

  % ---- nested helpers ----
  function t = tmpl(cmd, len)
    t = wl_cmd(seq, cmd, [], 0);
    t(9:10) = wl_be(len, 2);
    t(19:20) = 0;                           % command length 0, num_args 0 as 7.7.1 sends
  end

  function [cmds, chk] = write(samps, type, bufs)
    if nargin < 3, bufs = uint32(1); end
    NN = size(samps, 1);
    [cmds, chk] = wl_mex_udp_transport('write_iq', h, tmpl(hex2dec('30000008'), 8), ...
        maxPayload, ip, port, NN, samps, bufs, 0, ceil(NN / spp), spp, 3, 1, type);
    seq = mod(seq + cmds, 65535);
  end

  function [n, cmds, x] = read(NN, type, tracker_, sev, bufs)
    if nargin < 5, bufs = uint32(1); end
    t = [tmpl(hex2dec('30000009'), 28), uint8(zeros(1, 20))];
    [n, cmds, x] = wl_mex_udp_transport('read_iq', h, t, 42, ip, port, NN, bufs, 0, ...
        spp * 4, ceil(NN / spp), type, tracker_, sev, 'W3-a-00006 (ID =   1)');
    seq = mod(seq + cmds, 65535);
  end

  function trigger()
    % wl_transport_eth_udp_mex_bcast.send: transport header only, dest 0xFFFF, type 0
    d = [uint8([0 0]), wl_be(65535, 2), wl_be(250, 2), uint8([0 0]), wl_be(4, 2), ...
         wl_be(seq, 2), wl_be(0, 2), wl_be(1, 4)];
    sent = wl_mex_udp_transport('send', h, d, numel(d), ip, bport);
    seq = seq + 1;
    % the trigger is not answered: a PING behind it on the same path says it was served
    wl_robust(h, ip, port, wl_cmd(seq, hex2dec('10000001'), []));
    seq = seq + 1;
    if sent ~= numel(d), error('trigger: sent %d bytes', sent); end
  end

  function roundtrip(N, wtypes, rtypes)
    words = uint32(randi([0 2^32 - 1], N, 1));
    [I, Q] = halves(words);
    for wt = wtypes
      % write in type wt, read back raw
      switch wt
        case 0, s = double(I) / 32768 + 1i * double(Q) / 32768;
        case 1, s = single(I) / 32768 + 1i * single(Q) / 32768;
        case 2, s = cat(3, I, Q);             % Octave: no complex int16, I and Q pages
        case 3, s = words;
      end
      t0 = tic; write(s, wt); tw = toc(t0);
      trigger();
      [n, cmds, x] = read(N, 3, uint32(zeros(1, 8)), 'ignore');
      wl_check(sprintf('write_type%d_%d', wt, N), isequal(x, words), ...
            sprintf('%d of %d differ', sum(x ~= words), N));
      printf('# write type %d, %d samples: %.1f ms\n', wt, N, 1e3 * tw);
      clear s;
    end
    for rt = rtypes
      t0 = tic; [n, cmds, x] = read(N, rt, uint32(zeros(1, 8)), 'ignore'); tr = toc(t0);
      switch rt
        case 0, ok = isa(x, 'double') && iscomplex(x) && ...
                     isequal(real(x), double(I) / 32768) && isequal(imag(x), double(Q) / 32768);
        case 1, ok = isa(x, 'single') && iscomplex(x) && ...
                     isequal(real(x), single(I) / 32768) && isequal(imag(x), single(Q) / 32768);
        case 2, ok = isa(x, 'int16') && isequal(x, cat(3, I, Q));
        case 3, ok = isa(x, 'uint32') && isequal(x, words);
      end
      wl_check(sprintf('read_type%d_%d', rt, N), ok && n == N && ...
            cmds >= ceil(N / spp / 1024), sprintf('class %s size %s', class(x), mat2str(size(x))));
      printf('# read type %d, %d samples: %.1f ms\n', rt, N, 1e3 * tr);
      clear x;
    end
  end

end

function errors(h, ip, port, maxPayload, spp, t, tr, d)
    pre = 'wl_mex_udp_transport: ';
    expect_error('unknown_function', 0, @() wl_mex_udp_transport('fly'), ...
      'wl_mex_udp_transport: unknown function ''FLY''; accepted (any case): VERSION, INIT_SOCKET');
    expect_error('name_not_text', 0, @() wl_mex_udp_transport(3), ...
      'wl_mex_udp_transport: argument 1 must be the function name as text, e.g. ''version'' or ''read_iq''; got 1x1 double');
    expect_error('wrong_input_count', 0, @() wl_mex_udp_transport('close'), ...
      [pre 'CLOSE: takes 1 input after the name and gives 0 outputs; got 0 inputs and 0 outputs. Usage: wl_mex_udp_transport(''close'', h)']);
    expect_error('wrong_output_count', 2, @() wl_mex_udp_transport('init_socket'), ...
      [pre 'INIT_SOCKET: takes 0 inputs after the name and gives 1 output; got 0 inputs and 2 outputs']);
    expect_error('send_wrong_class', 1, @() wl_mex_udp_transport('send', h, double(d), 22, ip, port), ...
      [pre 'SEND: argument 3 (datagram) must be a uint8 row vector; got 1x22 double']);
    expect_error('send_buffer_too_small', 1, @() wl_mex_udp_transport('send', h, d, 30, ip, port), ...
      [pre 'SEND: argument 4 (bytes to send) is 30 but the datagram (argument 3) holds only 22 bytes']);
    expect_error('send_bad_ip', 1, @() wl_mex_udp_transport('send', h, d, 22, 'node1', port), ...
      [pre 'SEND: argument 5 (IP address) must be a dotted-quad IPv4 address such as ''10.0.0.1'' (no host names); got ''node1''']);
    expect_error('unknown_socket', 1, @() wl_mex_udp_transport('send', 64, d, 22, ip, port), ...
      [pre 'SEND: argument 2 (socket handle) 64 is not an open socket (INIT_SOCKET gives one; CLOSE ends it)']);
    expect_error('socket_out_of_range', 2, @() wl_mex_udp_transport('receive', 65, 100), ...
      [pre 'RECEIVE: argument 2 (socket handle) must be a real numeric scalar 0..64; got 65']);
    h2 = wl_mex_udp_transport('init_socket');
    wl_mex_udp_transport('close', h2);
    expect_error('closed_socket', 2, @() wl_mex_udp_transport('receive', h2, 100), ...
      sprintf('%sRECEIVE: argument 2 (socket handle) %d is not an open socket', pre, h2));
    expect_error('receive_zero', 2, @() wl_mex_udp_transport('receive', h, 0), ...
      [pre 'RECEIVE: argument 3 (most bytes to receive) must be a real numeric scalar 1..65536; got 0']);
    expect_error('write_buffer_too_small', 2, @() wl_mex_udp_transport('write_iq', h, t, 100, ...
      ip, port, 10, zeros(10, 1), uint32(1), 0, 1, spp, 3, 1, 0), ...
      [pre 'WRITE_IQ: argument 4 (send buffer bytes) 100 is too small for packets of 2232 samples: it must be at least 8960 (32 header bytes + 4 per sample)']);
    expect_error('write_wrong_class', 2, @() wl_mex_udp_transport('write_iq', h, t, maxPayload, ...
      ip, port, 10, single(zeros(10, 1)), uint32(1), 0, 1, spp, 3, 1, 0), ...
      [pre 'WRITE_IQ: argument 8 (samples) must be of class double for type 0; got 10x1 single']);
    expect_error('write_wrong_shape', 2, @() wl_mex_udp_transport('write_iq', h, t, maxPayload, ...
      ip, port, 10, zeros(10, 2), uint32(1), 0, 1, spp, 3, 1, 0), ...
      [pre 'WRITE_IQ: argument 8 (samples) must be 10 x 1 (samples x buffers)']);
    expect_error('read_bad_buffer', 3, @() wl_mex_udp_transport('read_iq', h, tr, 42, ip, port, ...
      10, uint32(3), 0, spp * 4, 1, 0, uint32(zeros(1, 8)), 'ignore', 'n'), ...
      [pre 'READ_IQ: argument 8 (buffers) element 1 is 3; each must be one interface: 1 (RF_A), 2 (RF_B), 4 (RF_C) or 8 (RF_D)']);
    expect_error('read_bad_npkts', 3, @() wl_mex_udp_transport('read_iq', h, tr, 42, ip, port, ...
      10000, uint32(1), 0, spp * 4, 1, 0, uint32(zeros(1, 8)), 'ignore', 'n'), ...
      [pre 'READ_IQ: argument 11 (number of packets) is 1, but 10000 samples at 2232 samples per packet take 5 packets']);
    expect_error('read_short_tracker', 3, @() wl_mex_udp_transport('read_iq', h, tr, 42, ip, port, ...
      10, uint32(1), 0, spp * 4, 1, 0, uint32(zeros(1, 4)), 'ignore', 'n'), ...
      [pre 'READ_IQ: argument 13 (IQ ID tracker) must be a uint32 row vector of at least 8 elements; got 1x4 uint32']);
    expect_error('read_bad_type', 3, @() wl_mex_udp_transport('read_iq', h, tr, 42, ip, port, ...
      10, uint32(1), 0, spp * 4, 1, 7, uint32(zeros(1, 8)), 'ignore', 'n'), ...
      [pre 'READ_IQ: argument 12 (0 (double), 1 (single), 2 (int16) or 3 (raw uint32)) must be a real numeric scalar 0..3; got 7']);
    % READ_RSSI: `warpspeed node` answers from its fixed pattern, value k of RF_A being
    % mod(5k, 1024), two to a word (docs/node.md)
    [n, cmds, x] = wl_mex_udp_transport('read_rssi', h, tr, 42, ip, port, 100, uint32(1), 0, ...
      spp * 4, 1, 0, uint32(zeros(1, 8)), 'ignore', 'n');
    wl_check('read_rssi_pattern', n == 100 && cmds >= 1 && ...
      isequal(double(x(:)), mod(5 * (0:199)', 1024)), ...
      sprintf('n %d, cmds %d, x(1:4) %s', n, cmds, mat2str(double(x(1:min(4, end)))')));
end

function v = sysctl_value(path)
  f = fopen(path); v = fscanf(f, '%d'); fclose(f);
end

function [I, Q] = halves(words)
  I = typecast(uint16(bitshift(words, -16)), 'int16');
  Q = typecast(uint16(bitand(words, 65535)), 'int16');
  I = reshape(I, size(words)); Q = reshape(Q, size(words));
end

function c = fletcher(words, start, spp)
  % WARPLab's write checksum: per packet start & 0xFFFF, then I XOR Q of its last sample
  s1 = 0; s2 = 0; N = numel(words);
  for first = 0:spp:N - 1
    last = min(first + spp, N);
    w = words(last);
    for v = [mod(start + first, 65536), double(bitxor(bitshift(w, -16), bitand(w, 65535)))]
      s1 = mod(s1 + v, 65535); s2 = mod(s2 + s1, 65535);
    end
  end
  c = s2 * 65536 + s1;
end


function expect_error(name, nout, f, want, want_id)
  try
    out = cell(1, nout);
    [out{:}] = f();
    wl_check(name, false, 'no error');
  catch e
    ok = strncmp(e.message, want, numel(want));
    if nargin > 4, ok = ok && strcmp(e.identifier, want_id); end
    wl_check(name, ok, sprintf('message "%s" (id %s)', e.message, e.identifier));
  end
end
