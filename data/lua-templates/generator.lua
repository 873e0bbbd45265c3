--@name Generator
--@category Discrete
--@glyph G
--@doc Emits a job every period, numbered 1, 2, 3...: the generator
--@doc (genr) of Zeigler's textbook, chapter 3.
--@inputs 0
--@outputs 1
--@param period 1 "Time between two jobs (greater than 0)"

-- The state: how many jobs went out, and when the next one is due.
function init(p, t)
  assert(p.period > 0, "the period must be greater than 0")
  return { period = p.period, start = t, count = 0, sigma = p.period }
end

function ta(s)
  return s.sigma
end

-- Just before the internal transition: the next job.
function lambda(s, t)
  out(0, s.count + 1)
end

function dint(s, t)
  s.count = s.count + 1
  -- The next time from the start, not from now, so that rounding
  -- errors do not add up over thousands of jobs.
  s.sigma = s.start + (s.count + 1) * s.period - t
end

-- A generator has no inputs; keep the schedule if one is wired anyway.
function dext(s, t, e, port, x)
  s.sigma = s.sigma - e
end
