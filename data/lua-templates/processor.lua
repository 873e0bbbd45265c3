--@name Processor
--@category Discrete
--@glyph P
--@doc Works on one job at a time for a fixed processing time and then
--@doc emits it; a job that arrives while it is busy is ignored: the
--@doc processor (proc) of Zeigler's textbook, chapter 3.
--@inputs 1
--@outputs 1
--@param time 1 "Processing time of one job"

-- phase "passive" waits forever; "busy" for the rest of the job's time.
function init(p)
  return { phase = "passive", sigma = math.huge, job = 0, time = p.time,
           served = 0, ignored = 0 }
end

function ta(s)
  return s.sigma
end

-- A job arrives: take it when idle; when busy, ignore it, and the time
-- left shrinks by the time e since the last transition.
function dext(s, t, e, port, x)
  if s.phase == "passive" then
    s.phase, s.sigma, s.job = "busy", s.time, x
  else
    s.sigma = s.sigma - e
    s.ignored = s.ignored + 1
  end
end

-- The job is done: it goes out...
function lambda(s, t)
  out(0, s.job)
end

-- ...and the processor waits for the next one.
function dint(s, t)
  s.phase, s.sigma = "passive", math.huge
  s.served = s.served + 1
end

-- At the end of the run: what it did, in the run's statistics.
function exit(s, t)
  stat("served", s.served)
  stat("ignored", s.ignored)
end
