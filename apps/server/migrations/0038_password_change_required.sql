-- A user whose password was made for them (the administrator created at first start with a
-- generated password) must choose their own before using the portal. The flag is set by the
-- bootstrap, cleared when the password is changed or reset, and checked on every signed-in API
-- call (apps/server/src/http/session.ts).
ALTER TABLE users ADD COLUMN must_change_password boolean NOT NULL DEFAULT false;

-- The bootstrap used to name its administrator "Portal Administrator", so the home page greeted
-- "Welcome, Portal". An administrator who never edited that placeholder is now just "Administrator".
UPDATE users SET first_name = 'Administrator', last_name = ''
 WHERE first_name = 'Portal' AND last_name = 'Administrator';
