function [cols, rows, stats] = okl_rounds_bogd (R, X, Y, opt, T)
  % Per-round records of a BOGD run (observed from the snapshots), each checked against the rule
  % as RULES.md states it (our own restatement, recomputed here): an error if they disagree.
  cols = {'t', 'id', 'y', 'f', 'mistake', 'update', 'loss_update', 'draw_pos', 'removed_id', ...
          'cap_scale', 'support_size', 'sv_ids', 'alpha'};
  rows = cell (T, 1);
  B = opt.Budget; eta = opt.eta; c = 1 - eta * opt.lambda;
  stats = struct ('evictions', 0, 'cap_fired', 0, 'mistakes', 0, 'max_err', 0, 'ties_at_one', 0);
  for t = 1:T
    pre = R.snaps{t}; post = R.snaps{t + 1};
    id = pre.id; y = Y(id); f = pre.f;
    if (isempty (pre.alpha))
      fe = 0;
    else
      fe = pre.alpha * okl_kern (X, pre.SV, id, opt.sigma);
    end
    e = okl_close (sprintf ('BOGD t=%d f', t), f, fe, 1e-12);
    draw_pos = NaN; removed = NaN; cap = NaN;
    pc = R.perm_calls(R.perm_calls(:, 1) == t, :);
    if (y * f <= 1)                        % BOGD.m line 62
      if (numel (pre.alpha) < B)
        a = [c * pre.alpha, eta * y]; S = [pre.SV, id]; kind = 'add';
        if (! isempty (pc)), error ('BOGD t=%d: randperm called below the budget', t); end
      else
        if (size (pc, 1) != 1), error ('BOGD t=%d: expected one randperm call', t); end
        draw_pos = pc(3);
        keep = setdiff (1:B, draw_pos);
        a = pre.alpha * (B * c / (B - 1));
        a = [a(keep), eta * y];
        s = min (eta * opt.gamma / max (abs (a)), 1);
        a = a * s; S = [pre.SV(keep), id]; kind = 'evict';
        removed = pre.SV(draw_pos);
        cap = post.alpha(end) / (eta * y);   % observed: the new coefficient is eta*y before the cap
        stats.evictions += 1;
        stats.cap_fired += cap < 1;
        okl_close (sprintf ('BOGD t=%d cap', t), cap, s, 1e-12);
      end
      if (y * f == 1), stats.ties_at_one += 1; end
    else
      a = c * pre.alpha; S = pre.SV;
      if (isempty (pre.alpha)), kind = 'none'; else kind = 'shrink'; end
      if (! isempty (pc)), error ('BOGD t=%d: randperm called without an update', t); end
    end
    if (! isequal (post.SV, S)), error ('BOGD t=%d: support ids %s, expected %s', t, mat2str (post.SV), mat2str (S)); end
    e = max (e, okl_close (sprintf ('BOGD t=%d alpha', t), post.alpha, a, 1e-12));
    stats.max_err = max (stats.max_err, e);
    mistake = post.err_count - pre.err_count;
    stats.mistakes += mistake;
    rows{t} = {sprintf('%d', t), sprintf('%d', id), sprintf('%d', y), okl_fmt(f), sprintf('%d', mistake), ...
               kind, sprintf('%d', any (strcmp (kind, {'add', 'evict'}))), okl_nan(draw_pos), okl_nan(removed), ...
               okl_nan(cap), sprintf('%d', numel (post.SV)), okl_fmt(post.SV), okl_fmt(post.alpha)};
  end
end

function s = okl_nan (v)
  if (isnan (v)), s = ''; else s = okl_fmt (v); end
end
