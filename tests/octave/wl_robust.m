function [reply, w] = wl_robust(h, ip, port, d)
% WL_ROBUST  wl_transport_eth_udp_mex.send(w, robust): SEND the command, then RECEIVE
% (maxPayload + 100) until a reply with the IDs swapped and the same seq comes, 1 s per
% try, 2 tries; reply is the whole datagram (uint8 column), w its argument words.
  seq = double(d(11)) * 256 + double(d(12));
  for try_ = 1:2
    sent = wl_mex_udp_transport('send', h, d, numel(d), ip, port);
    if sent ~= numel(d), error('wl_robust: sent %d of %d bytes', sent, numel(d)); end
    t0 = tic;
    while toc(t0) < 1
      [len, r] = wl_mex_udp_transport('receive', h, 9064);
      if len >= 22 && r(3) == d(5) && r(4) == d(6) && r(5) == d(3) && r(6) == d(4) && ...
         double(r(11)) * 256 + double(r(12)) == seq
        reply = r;
        w = wl_words(r(23:end));
        return;
      end
      if len == 0, pause(0.0005); end
    end
  end
  error('wl_robust: no reply to seq %d from %s:%d', seq, ip, port);
end
