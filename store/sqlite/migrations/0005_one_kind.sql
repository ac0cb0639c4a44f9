-- Every table names its game (game.Kind) and holds its variant's whole
-- rules as a record does (game.Variant.Rules), so that a table's game is
-- opened the same way whatever its kind and a change of a game's default
-- rules never changes a stored game. Ordinary tables ('' until now) become
-- 'farkle': their rules column already holds their rules.Rules JSON.
-- Dragon Farkle tables held only the soldier table, their rules being
-- named by the variant column: '' the classic battle, 'army' the army
-- battle with the seat bonus; they get those rules, written out, and the
-- variant column goes. Their actions (Dragon Farkle action JSON) and the
-- final records of every kind (read by game.ParseRecord in any of their
-- formats) stay as they are.
UPDATE tables SET kind = 'farkle' WHERE kind = '';
UPDATE tables SET rules = '{"name":"dragon","soldiers":{"name":"dragon-soldiers","dice":6,"scoring":{"single":{"1":100,"5":50},"triple":[1000,200,300,400,500,600],"kind_mode":"fixed","four_of_a_kind":1500,"five_of_a_kind":0,"six_of_a_kind":2500,"straight":3000,"small_straight_low":0,"small_straight_high":0,"three_pairs":2000,"three_pairs_quad":true,"four_kind_pair":0,"two_triplets":0,"six_dice_nothing":0},"turn":{"hot_dice":true,"entry_minimum":0,"bank_minimum":0,"farkle_penalty":{"count":0,"points":0}},"game":{"target":5000,"ending":"immediate","min_players":2,"max_players":5,"first_player":"roll-off","tie":"share"}},"min_players":2,"max_players":5,"battle_minimum":5000,"battle":"classic","battle_wave":0,"battle_fire":0,"seat_bonus":0,"dragon_health":3,"rally_damage":1,"dragon_damage":2,"brawl_bonus":500,"brawl_dice":[6,5],"item_limit":1,"round_limit":0}' WHERE kind = 'dragon' AND variant = '';
UPDATE tables SET rules = '{"name":"dragon","soldiers":{"name":"dragon-soldiers","dice":6,"scoring":{"single":{"1":100,"5":50},"triple":[1000,200,300,400,500,600],"kind_mode":"fixed","four_of_a_kind":1500,"five_of_a_kind":0,"six_of_a_kind":2500,"straight":3000,"small_straight_low":0,"small_straight_high":0,"three_pairs":2000,"three_pairs_quad":true,"four_kind_pair":0,"two_triplets":0,"six_dice_nothing":0},"turn":{"hot_dice":true,"entry_minimum":0,"bank_minimum":0,"farkle_penalty":{"count":0,"points":0}},"game":{"target":5000,"ending":"immediate","min_players":2,"max_players":5,"first_player":"roll-off","tie":"share"}},"min_players":2,"max_players":5,"battle_minimum":5000,"battle":"army","battle_wave":1200,"battle_fire":1000,"seat_bonus":300,"dragon_health":3,"rally_damage":1,"dragon_damage":2,"brawl_bonus":500,"brawl_dice":[6,5],"item_limit":1,"round_limit":0}' WHERE kind = 'dragon' AND variant = 'army';
ALTER TABLE tables DROP COLUMN variant;
