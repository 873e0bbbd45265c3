--@name QSS1 Integrator
--@category Continuous
--@glyph ∫
--@doc Integrates its input with the first-order quantized state system
--@doc method (QSS1, Kofman and Cellier): the output q is the state x
--@doc quantized with the quantum dq, and changes only when x has moved
--@doc a whole quantum away from it.
--@inputs 1
--@outputs 1
--@param x0 0 "Initial state"
--@param dq 0.01 "Quantum (greater than 0)"

-- x is the state, u its derivative (the input), q the output; target is
-- the level q takes at the next internal transition. At the start the
-- output x0 is due at once (sigma = 0, start = true).
function init(p)
  assert(p.dq > 0, "the quantum dq must be greater than 0")
  return { x = p.x0, u = 0, q = p.x0, dq = p.dq, target = p.x0, sigma = 0,
           start = true }
end

function ta(s)
  return s.sigma
end

-- Time until x, moving with slope u from q's level, reaches q ± dq.
local function next_level(s)
  if s.u > 0 then
    s.target = s.q + s.dq
  elseif s.u < 0 then
    s.target = s.q - s.dq
  else
    s.sigma = math.huge
    return
  end
  s.sigma = (s.target - s.x) / s.u
end

-- The output is the level x reaches: exactly q ± dq.
function lambda(s, t)
  out(0, s.target)
end

function dint(s, t)
  s.x, s.q, s.start = s.target, s.target, false
  next_level(s)
end

-- A new derivative: bring x up to now, then aim again.
-- QSS1 signals are constants; of a higher-order one, take its value.
function dext(s, t, e, port, x)
  if type(x) == "table" then x = x[1] end
  s.x = s.x + s.u * e
  s.u = x
  -- Before the first output, it stays due now.
  if not s.start then next_level(s) end
end
