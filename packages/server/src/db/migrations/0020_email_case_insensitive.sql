-- Sign-in addresses are unique and looked up without regard to case (issue 17: `alice@`, `ALICE@` and
-- `Alice@Example.COM` were three accounts). The address is still stored as the user typed it.
--
-- Accounts created before this migration whose addresses differ only in case keep signing in: all but the
-- earliest of each such group are marked `case_duplicate` and left out of the new unique index, so the
-- migration cannot fail on them; new ones are refused by the index.
alter table contact_channels add column case_duplicate boolean not null default false;

update contact_channels c set case_duplicate = true
where c.used_for_auth and exists (
  select 1 from contact_channels o
  where o.project_id = c.project_id and o.type = c.type and o.used_for_auth
    and lower(o.value) = lower(c.value) and (o.created_at, o.id) < (c.created_at, c.id)
);

-- Same name as the index it replaces: the code maps a violation of it to "already used by another account".
drop index contact_channels_auth_value;
create unique index contact_channels_auth_value on contact_channels (project_id, type, lower(value)) where used_for_auth and not case_duplicate;
