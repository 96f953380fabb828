function name = okl_caller ()
  % Name of the function that called the shadowed function which calls this one
  % (stack: okl_caller <- shadow <- caller); '' at the top level.
  st = dbstack ();
  if (numel (st) >= 3)
    name = st(3).name;
  else
    name = '';
  end
end
