function R = okl_run (learner, X, Y, options, T, draws)
  % Runs the authors' learner (a function on the path: BOGD, BPAs, FouGD or NysGD), unmodified,
  % on rows 1..T in order, with the pre-drawn values `draws` (fields perm, normals) served by the
  % shadowed randperm / randn. One extra probe round (row 1 again) is appended so that the state
  % after round T is snapshotted too (by the sign hook at the probe's prediction); the probe's own
  % record is discarded. Returns R.snaps{t} = f_t and the workspace before round t's update
  % (t = 1..T+1), R.perm_calls (rows [t, B, position]), and the function's own outputs.
  global OKL_DRAWS OKL_LOG
  OKL_DRAWS = struct ('perm', draws.perm, 'perm_next', 1, 'normals', draws.normals);
  OKL_LOG = struct ('snaps', {{}}, 'perm_calls', zeros (0, 3), 'randn_calls', zeros (0, 2));
  options.t_tick = 1;
  id_list = [1:T, 1];
  [classifier, err_count, run_time, mistakes, mistakes_idx, SVs] = feval (learner, Y, X, options, id_list);
  R = OKL_LOG;
  if (numel (R.snaps) != T + 1)
    error ('okl_run: %s: %d snapshots for %d rounds (sign hook not hit once per round?)', learner, numel (R.snaps), T + 1);
  end
  R.classifier = classifier;
  R.err_count_total = err_count;          % includes the probe round
  R.mistake_rate = mistakes;              % err_count/t for t = 1..T+1 (t_tick = 1)
  R.their_SVs = SVs;                      % length(SV) after each round
  OKL_DRAWS = []; OKL_LOG = [];
end
