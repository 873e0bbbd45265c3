--@name Queue and Server
--@category Discrete
--@glyph Q
--@doc A first-in first-out queue in front of one server: jobs wait in
--@doc line and are served one at a time for a fixed time each, in the
--@doc order they came. None is lost. Emits each job when its service ends.
--@inputs 1
--@outputs 1
--@param time 1 "Service time of one job"

function init(p)
  -- line[first..last] are the waiting jobs; the one in service is first.
  return { line = {}, first = 1, last = 0, time = p.time, sigma = math.huge }
end

function ta(s)
  return s.sigma
end

local function length(s)
  return s.last - s.first + 1
end

function dext(s, t, e, port, x)
  s.last = s.last + 1
  s.line[s.last] = x
  if length(s) == 1 then
    s.sigma = s.time         -- the server was idle: start at once
  else
    s.sigma = s.sigma - e    -- still serving the one in front
  end
end

function lambda(s, t)
  out(0, s.line[s.first])
end

function dint(s, t)
  s.line[s.first] = nil
  s.first = s.first + 1
  if length(s) > 0 then
    s.sigma = s.time         -- the next in line
  else
    s.sigma = math.huge
  end
end
