-- The administrator's day: when each user last signed in, and what a session was started from.

-- Set at every sign-in (password or upstream identity provider) when the portal session starts;
-- NULL: the user never signed in. Read by the members' lists and the inactive-member filter.
ALTER TABLE users ADD COLUMN last_sign_in_at timestamptz;

-- Shown in the user's list of active sessions (browser from the User-Agent, address).
ALTER TABLE sessions ADD COLUMN user_agent text;
ALTER TABLE sessions ADD COLUMN ip_address text;
