-- Portuguese (Brazil) is a user language (docs/decisions/012-user-languages.md): users and
-- invitations may hold 'pt-BR' besides the five short codes of 0001_init.sql.
ALTER TABLE users DROP CONSTRAINT users_language_code_check;
ALTER TABLE users ADD CONSTRAINT users_language_code_check CHECK (language_code IN ('en','nl','de','fr','es','pt-BR'));
ALTER TABLE invitations DROP CONSTRAINT invitations_language_code_check;
ALTER TABLE invitations ADD CONSTRAINT invitations_language_code_check CHECK (language_code IN ('en','nl','de','fr','es','pt-BR'));
