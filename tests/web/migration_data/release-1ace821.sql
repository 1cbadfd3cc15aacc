BEGIN TRANSACTION;
CREATE TABLE audit_log (
	id INTEGER NOT NULL, 
	at DATETIME NOT NULL, 
	actor VARCHAR(40) NOT NULL, 
	action VARCHAR(120) NOT NULL, 
	target VARCHAR(300) NOT NULL, 
	status INTEGER, 
	details JSON NOT NULL, 
	PRIMARY KEY (id)
);
INSERT INTO "audit_log" VALUES(1,'2026-12-01 15:26:26.427568','director','POST api.create_tournament','/api/tournaments',201,'{"name": "Thursday PLO", "levels": [{"kind": "level", "game": "PO", "duration_seconds": 1200, "small_blind": 100, "big_blind": 200}, {"kind": "level", "game": "PO", "duration_seconds": 1200, "small_blind": 200, "big_blind": 400}, {"kind": "break", "duration_seconds": 600, "note": "Colour up"}, {"kind": "level", "game": "PO", "duration_seconds": 1200, "small_blind": 300, "big_blind": 600, "ante": 600}]}');
INSERT INTO "audit_log" VALUES(2,'2026-12-01 15:26:26.457138','director','POST money.api_settings','/api/tournaments/1/money/settings',200,'{"buy_in": "100", "fee": "10", "starting_stack": 10000, "late_registration_level": 3, "rebuy": true, "rebuy_price": "100", "rebuy_chips": 10000, "rebuy_until": 2}');
INSERT INTO "audit_log" VALUES(3,'2026-12-01 15:26:26.481726','director','POST seating.api_settings','/api/tournaments/1/seating/settings',200,'{"table_size": 9}');
INSERT INTO "audit_log" VALUES(4,'2026-12-01 15:26:26.526124','director','POST money.api_sell','/api/tournaments/1/money/entries',201,'{"kind": "buy-in", "name": "Ann", "request_key": "(hidden)"}');
INSERT INTO "audit_log" VALUES(5,'2026-12-01 15:26:26.537422','director','POST money.api_sell','/api/tournaments/1/money/entries',201,'{"kind": "buy-in", "name": "Bo", "request_key": "(hidden)"}');
INSERT INTO "audit_log" VALUES(6,'2026-12-01 15:26:26.552169','director','POST money.api_sell','/api/tournaments/1/money/entries',201,'{"kind": "buy-in", "name": "Cy", "request_key": "(hidden)"}');
INSERT INTO "audit_log" VALUES(7,'2026-12-01 15:26:26.562849','director','POST money.api_sell','/api/tournaments/1/money/entries',201,'{"kind": "buy-in", "name": "Di", "request_key": "(hidden)"}');
INSERT INTO "audit_log" VALUES(8,'2026-12-01 15:26:26.573875','director','POST money.api_sell','/api/tournaments/1/money/entries',201,'{"kind": "buy-in", "name": "Ed", "request_key": "(hidden)"}');
INSERT INTO "audit_log" VALUES(9,'2026-12-01 15:26:26.584390','director','POST money.api_sell','/api/tournaments/1/money/entries',201,'{"kind": "buy-in", "name": "Flo", "request_key": "(hidden)"}');
INSERT INTO "audit_log" VALUES(10,'2026-12-01 15:26:26.596088','director','POST money.api_sell','/api/tournaments/1/money/entries',201,'{"kind": "buy-in", "name": "Gus", "request_key": "(hidden)"}');
INSERT INTO "audit_log" VALUES(11,'2026-12-01 15:26:26.607179','director','POST money.api_sell','/api/tournaments/1/money/entries',201,'{"kind": "buy-in", "name": "Hal", "request_key": "(hidden)"}');
INSERT INTO "audit_log" VALUES(12,'2026-12-01 15:26:26.626895','director','POST money.api_sell','/api/tournaments/1/money/entries',201,'{"kind": "buy-in", "name": "Ida", "request_key": "(hidden)"}');
INSERT INTO "audit_log" VALUES(13,'2026-12-01 15:26:26.664524','director','POST money.api_sell','/api/tournaments/1/money/entries',201,'{"kind": "buy-in", "name": "Jo", "request_key": "(hidden)"}');
INSERT INTO "audit_log" VALUES(14,'2026-12-01 15:26:26.690794','director','POST money.api_sell','/api/tournaments/1/money/entries',201,'{"kind": "buy-in", "name": "Kim", "request_key": "(hidden)"}');
INSERT INTO "audit_log" VALUES(15,'2026-12-01 15:26:26.715003','director','POST money.api_sell','/api/tournaments/1/money/entries',201,'{"kind": "buy-in", "name": "Lu", "request_key": "(hidden)"}');
INSERT INTO "audit_log" VALUES(16,'2026-12-01 15:26:26.735253','director','POST money.api_sell','/api/tournaments/1/money/entries',201,'{"kind": "buy-in", "name": "Max", "request_key": "(hidden)"}');
INSERT INTO "audit_log" VALUES(17,'2026-12-01 15:26:26.754665','director','POST money.api_sell','/api/tournaments/1/money/entries',201,'{"kind": "buy-in", "name": "Ned", "request_key": "(hidden)"}');
INSERT INTO "audit_log" VALUES(18,'2026-12-01 15:26:26.773443','director','POST money.api_sell','/api/tournaments/1/money/entries',201,'{"kind": "buy-in", "name": "Oda", "request_key": "(hidden)"}');
INSERT INTO "audit_log" VALUES(19,'2026-12-01 15:26:26.800084','director','POST money.api_sell','/api/tournaments/1/money/entries',201,'{"kind": "buy-in", "name": "Pia", "request_key": "(hidden)"}');
INSERT INTO "audit_log" VALUES(20,'2026-12-01 15:26:26.824472','director','POST seating.api_draw','/api/tournaments/1/seating/draw',200,'{}');
INSERT INTO "audit_log" VALUES(21,'2026-12-01 15:26:26.912209','director','POST house_rules.api_save','/api/tournaments/1/house-rules',200,'{"bba_order": "ante-first", "odd_chip_multi": "all-to-first"}');
INSERT INTO "audit_log" VALUES(22,'2026-12-01 15:26:26.942498','director','POST api.clock_control','/api/tournaments/1/clock/start',200,'{}');
INSERT INTO "audit_log" VALUES(23,'2026-12-01 15:26:26.951922','director','POST api.clock_control','/api/tournaments/1/clock/next',200,'{}');
INSERT INTO "audit_log" VALUES(24,'2026-12-01 15:26:26.960995','director','POST money.api_sell','/api/tournaments/1/money/entries',201,'{"kind": "rebuy", "player_id": 16, "stack": 0, "request_key": "(hidden)"}');
INSERT INTO "audit_log" VALUES(25,'2026-12-01 15:26:26.973298','director','POST seating.api_eliminate','/api/tournaments/1/seating/eliminate',200,'{"player_id": 15}');
INSERT INTO "audit_log" VALUES(26,'2026-12-01 15:26:26.982274','dealer:table 1','POST dealer_api.pair','/api/dealer/pair',201,'{"code": "(hidden)"}');
INSERT INTO "audit_log" VALUES(27,'2026-12-01 15:26:26.990769','director','POST dealer_api.start_hand','/api/tables/1/hands',201,'{"absent_seats": []}');
INSERT INTO "audit_log" VALUES(28,'2026-12-01 15:26:26.993248','director','POST dealer_api.action','/api/tables/1/hand/actions',200,'{"seat": 6, "action": "fold", "version": 1, "idempotency_key": "h0-0"}');
INSERT INTO "audit_log" VALUES(29,'2026-12-01 15:26:26.995154','director','POST dealer_api.action','/api/tables/1/hand/actions',200,'{"seat": 7, "action": "fold", "version": 2, "idempotency_key": "h0-1"}');
INSERT INTO "audit_log" VALUES(30,'2026-12-01 15:26:26.996987','director','POST dealer_api.action','/api/tables/1/hand/actions',200,'{"seat": 8, "action": "fold", "version": 3, "idempotency_key": "h0-2"}');
INSERT INTO "audit_log" VALUES(31,'2026-12-01 15:26:26.998669','director','POST dealer_api.action','/api/tables/1/hand/actions',200,'{"seat": 9, "action": "fold", "version": 4, "idempotency_key": "h0-3"}');
INSERT INTO "audit_log" VALUES(32,'2026-12-01 15:26:27.002894','director','POST dealer_api.action','/api/tables/1/hand/actions',200,'{"seat": 1, "action": "fold", "version": 5, "idempotency_key": "h0-4"}');
INSERT INTO "audit_log" VALUES(33,'2026-12-01 15:26:27.011232','director','POST dealer_api.action','/api/tables/1/hand/actions',200,'{"seat": 3, "action": "fold", "version": 6, "idempotency_key": "h0-5"}');
INSERT INTO "audit_log" VALUES(34,'2026-12-01 15:26:27.017153','director','POST dealer_api.action','/api/tables/1/hand/actions',200,'{"seat": 4, "action": "fold", "version": 7, "idempotency_key": "h0-6"}');
INSERT INTO "audit_log" VALUES(35,'2026-12-01 15:26:27.026184','director','POST dealer_api.start_hand','/api/tables/1/hands',201,'{"absent_seats": []}');
INSERT INTO "audit_log" VALUES(36,'2026-12-01 15:26:27.030306','director','POST dealer_api.action','/api/tables/1/hand/actions',200,'{"seat": 7, "action": "call", "version": 1, "idempotency_key": "h1-0"}');
INSERT INTO "audit_log" VALUES(37,'2026-12-01 15:26:27.033699','director','POST dealer_api.action','/api/tables/1/hand/actions',200,'{"seat": 8, "action": "call", "version": 2, "idempotency_key": "h1-1"}');
INSERT INTO "audit_log" VALUES(38,'2026-12-01 15:26:27.041061','director','POST dealer_api.action','/api/tables/1/hand/actions',200,'{"seat": 9, "action": "call", "version": 3, "idempotency_key": "h1-2"}');
INSERT INTO "audit_log" VALUES(39,'2026-12-01 15:26:27.044539','director','POST dealer_api.action','/api/tables/1/hand/actions',200,'{"seat": 1, "action": "call", "version": 4, "idempotency_key": "h1-3"}');
INSERT INTO "audit_log" VALUES(40,'2026-12-01 15:26:27.051193','director','POST dealer_api.action','/api/tables/1/hand/actions',200,'{"seat": 3, "action": "call", "version": 5, "idempotency_key": "h1-4"}');
INSERT INTO "audit_log" VALUES(41,'2026-12-01 15:26:27.055155','director','POST dealer_api.action','/api/tables/1/hand/actions',200,'{"seat": 4, "action": "call", "version": 6, "idempotency_key": "h1-5"}');
INSERT INTO "audit_log" VALUES(42,'2026-12-01 15:26:27.058489','director','POST dealer_api.action','/api/tables/1/hand/actions',200,'{"seat": 5, "action": "call", "version": 7, "idempotency_key": "h1-6"}');
INSERT INTO "audit_log" VALUES(43,'2026-12-01 15:26:27.063115','director','POST dealer_api.action','/api/tables/1/hand/actions',200,'{"seat": 6, "action": "check", "version": 8, "idempotency_key": "h1-7"}');
INSERT INTO "audit_log" VALUES(44,'2026-12-01 15:26:27.075201','director','POST dealer_api.board','/api/tables/1/hand/board',200,'{"cards": "(hidden)", "version": 9}');
INSERT INTO "audit_log" VALUES(45,'2026-12-01 15:26:27.083224','director','POST dealer_api.action','/api/tables/1/hand/actions',200,'{"seat": 5, "action": "check", "version": 10}');
INSERT INTO "audit_log" VALUES(46,'2026-12-01 15:26:27.086180','director','POST dealer_api.action','/api/tables/1/hand/actions',200,'{"seat": 6, "action": "check", "version": 11}');
INSERT INTO "audit_log" VALUES(47,'2026-12-01 15:26:27.090553','director','POST dealer_api.action','/api/tables/1/hand/actions',200,'{"seat": 7, "action": "check", "version": 12}');
INSERT INTO "audit_log" VALUES(48,'2026-12-01 15:26:27.093085','director','POST dealer_api.action','/api/tables/1/hand/actions',200,'{"seat": 8, "action": "check", "version": 13}');
INSERT INTO "audit_log" VALUES(49,'2026-12-01 15:26:27.099200','director','POST dealer_api.action','/api/tables/1/hand/actions',200,'{"seat": 9, "action": "check", "version": 14}');
INSERT INTO "audit_log" VALUES(50,'2026-12-01 15:26:27.107003','director','POST dealer_api.action','/api/tables/1/hand/actions',200,'{"seat": 1, "action": "check", "version": 15}');
INSERT INTO "audit_log" VALUES(51,'2026-12-01 15:26:27.118205','director','POST dealer_api.action','/api/tables/1/hand/actions',200,'{"seat": 3, "action": "check", "version": 16}');
INSERT INTO "audit_log" VALUES(52,'2026-12-01 15:26:27.130647','director','POST dealer_api.action','/api/tables/1/hand/actions',200,'{"seat": 4, "action": "check", "version": 17}');
INSERT INTO "audit_log" VALUES(53,'2026-12-01 15:26:27.135168','director','POST dealer_api.board','/api/tables/1/hand/board',200,'{"cards": "(hidden)", "version": 18}');
INSERT INTO "audit_log" VALUES(54,'2026-12-01 15:26:27.139150','director','POST dealer_api.action','/api/tables/1/hand/actions',200,'{"seat": 5, "action": "check", "version": 19}');
INSERT INTO "audit_log" VALUES(55,'2026-12-01 15:26:27.144622','director','POST dealer_api.action','/api/tables/1/hand/actions',200,'{"seat": 6, "action": "check", "version": 20}');
INSERT INTO "audit_log" VALUES(56,'2026-12-01 15:26:27.151185','director','POST dealer_api.action','/api/tables/1/hand/actions',200,'{"seat": 7, "action": "check", "version": 21}');
INSERT INTO "audit_log" VALUES(57,'2026-12-01 15:26:27.155605','director','POST dealer_api.action','/api/tables/1/hand/actions',200,'{"seat": 8, "action": "check", "version": 22}');
INSERT INTO "audit_log" VALUES(58,'2026-12-01 15:26:27.163144','director','POST dealer_api.action','/api/tables/1/hand/actions',200,'{"seat": 9, "action": "check", "version": 23}');
INSERT INTO "audit_log" VALUES(59,'2026-12-01 15:26:27.165663','director','POST dealer_api.action','/api/tables/1/hand/actions',200,'{"seat": 1, "action": "check", "version": 24}');
INSERT INTO "audit_log" VALUES(60,'2026-12-01 15:26:27.168240','director','POST dealer_api.action','/api/tables/1/hand/actions',200,'{"seat": 3, "action": "check", "version": 25}');
INSERT INTO "audit_log" VALUES(61,'2026-12-01 15:26:27.171089','director','POST dealer_api.action','/api/tables/1/hand/actions',200,'{"seat": 4, "action": "check", "version": 26}');
INSERT INTO "audit_log" VALUES(62,'2026-12-01 15:26:27.175841','director','POST dealer_api.board','/api/tables/1/hand/board',200,'{"cards": "(hidden)", "version": 27}');
INSERT INTO "audit_log" VALUES(63,'2026-12-01 15:26:27.183594','director','POST dealer_api.action','/api/tables/1/hand/actions',200,'{"seat": 5, "action": "check", "version": 28}');
INSERT INTO "audit_log" VALUES(64,'2026-12-01 15:26:27.186463','director','POST dealer_api.action','/api/tables/1/hand/actions',200,'{"seat": 6, "action": "check", "version": 29}');
INSERT INTO "audit_log" VALUES(65,'2026-12-01 15:26:27.193328','director','POST dealer_api.action','/api/tables/1/hand/actions',200,'{"seat": 7, "action": "check", "version": 30}');
INSERT INTO "audit_log" VALUES(66,'2026-12-01 15:26:27.196436','director','POST dealer_api.action','/api/tables/1/hand/actions',200,'{"seat": 8, "action": "check", "version": 31}');
INSERT INTO "audit_log" VALUES(67,'2026-12-01 15:26:27.203172','director','POST dealer_api.action','/api/tables/1/hand/actions',200,'{"seat": 9, "action": "check", "version": 32}');
INSERT INTO "audit_log" VALUES(68,'2026-12-01 15:26:27.208610','director','POST dealer_api.action','/api/tables/1/hand/actions',200,'{"seat": 1, "action": "check", "version": 33}');
INSERT INTO "audit_log" VALUES(69,'2026-12-01 15:26:27.215162','director','POST dealer_api.action','/api/tables/1/hand/actions',200,'{"seat": 3, "action": "check", "version": 34}');
INSERT INTO "audit_log" VALUES(70,'2026-12-01 15:26:27.219240','director','POST dealer_api.action','/api/tables/1/hand/actions',200,'{"seat": 4, "action": "check", "version": 35}');
INSERT INTO "audit_log" VALUES(71,'2026-12-01 15:26:27.223788','director','POST dealer_api.award','/api/tables/1/hand/award',200,'{"version": 36, "high": [[5]]}');
INSERT INTO "audit_log" VALUES(72,'2026-12-01 15:26:27.231482','director','POST dealer_api.start_hand','/api/tables/1/hands',201,'{"absent_seats": []}');
INSERT INTO "audit_log" VALUES(73,'2026-12-01 15:26:27.236360','director','POST dealer_api.action','/api/tables/1/hand/actions',200,'{"seat": 8, "action": "call", "version": 1, "idempotency_key": "h2-0"}');
INSERT INTO "audit_log" VALUES(74,'2026-12-01 15:26:27.238505','director','POST dealer_api.action','/api/tables/1/hand/actions',200,'{"seat": 9, "action": "call", "version": 2, "idempotency_key": "h2-1"}');
INSERT INTO "audit_log" VALUES(75,'2026-12-01 15:26:27.243147','director','POST dealer_api.action','/api/tables/1/hand/actions',200,'{"seat": 1, "action": "call", "version": 3, "idempotency_key": "h2-2"}');
INSERT INTO "audit_log" VALUES(76,'2026-12-01 15:26:27.260519','director','POST dealer_api.undo','/api/tables/1/hand/undo',200,'{"version": 4, "idempotency_key": "undo-1"}');
CREATE TABLE dealer_device (
	id INTEGER NOT NULL, 
	tournament_id INTEGER NOT NULL, 
	table_id INTEGER NOT NULL, 
	token_hash VARCHAR(64) NOT NULL, 
	created_at DATETIME NOT NULL, 
	revoked_at DATETIME, 
	PRIMARY KEY (id), 
	FOREIGN KEY(tournament_id) REFERENCES tournament (id) ON DELETE CASCADE, 
	UNIQUE (token_hash)
);
INSERT INTO "dealer_device" VALUES(1,1,1,'979d9c0644d8e5f287c7887ef98236e9826ef1691c02e5d02b23dfa62308d253','2026-12-01 15:26:26.980668',NULL);
CREATE TABLE dealer_hand (
	id INTEGER NOT NULL, 
	tournament_id INTEGER NOT NULL, 
	table_id INTEGER NOT NULL, 
	table_number INTEGER NOT NULL, 
	number INTEGER NOT NULL, 
	game VARCHAR(8) NOT NULL, 
	config JSON NOT NULL, 
	players JSON NOT NULL, 
	level JSON NOT NULL, 
	positions JSON NOT NULL, 
	status VARCHAR(12) NOT NULL, 
	version INTEGER NOT NULL, 
	last_seq INTEGER NOT NULL, 
	chips_applied JSON, 
	clock_call JSON, 
	started_at DATETIME NOT NULL, 
	finished_at DATETIME, 
	PRIMARY KEY (id), 
	UNIQUE (table_id, number), 
	FOREIGN KEY(tournament_id) REFERENCES tournament (id) ON DELETE CASCADE
);
INSERT INTO "dealer_hand" VALUES(1,1,1,1,1,'PO','{"game": "PO", "starting_stacks": [10000, 10000, 10000, 10000, 10000, 10000, 10000, 10000], "antes": [0, 0, 0, 0, 0, 0, 0, 0], "blinds_or_straddles": [200, 400, 0, 0, 0, 0, 0, 0], "bring_in": 0, "small_bet": 0, "big_bet": 0, "min_bet": 400, "ante_trimming": true, "small_blind": 200, "big_blind": 400, "chip_unit": 200, "dead_players": [], "event_heads_up": false, "seats": [4, 5, 6, 7, 8, 9, 1, 3], "policy": {"limit_raise_cap": 3, "limit_cap_heads_up": true, "bba_order": "ante-first", "pl_preflop_assume_full_blinds": true, "pl_count_antes_in_pot": true, "limit_short_allin_counts_to_cap": true, "stud_high_hand_tie": "suit", "stud_4th_street_double": false, "odd_chip_multi": "all-to-first", "stud_odd_chip_card_set": "five-card", "identical_hands_both_ways": "split-whole", "straddle_min_raise": "double-straddle"}}','[{"seat": 4, "player_id": 16, "name": "Pia"}, {"seat": 5, "player_id": 5, "name": "Ed"}, {"seat": 6, "player_id": 7, "name": "Gus"}, {"seat": 7, "player_id": 6, "name": "Flo"}, {"seat": 8, "player_id": 4, "name": "Di"}, {"seat": 9, "player_id": 10, "name": "Jo"}, {"seat": 1, "player_id": 9, "name": "Ida"}, {"seat": 3, "player_id": 12, "name": "Lu"}]','{"kind": "level", "duration_seconds": 1200, "game": "PO", "small_blind": 200, "big_blind": 400, "ante": 0, "big_blind_ante": false, "small_bet": 0, "big_bet": 0, "bring_in": 0, "note": "", "index": 1, "is_break": false, "level_number": 2, "game_label": "pot-limit Omaha", "stakes_label": "200/400"}','{"button": 3, "small_blind": 4, "big_blind": 5}','finished',8,7,'{"16": -200, "5": 200}',NULL,'2026-12-01 15:26:26.987566','2026-12-01 15:26:27.012519');
INSERT INTO "dealer_hand" VALUES(2,1,1,1,2,'PO','{"game": "PO", "starting_stacks": [10200, 10000, 10000, 10000, 10000, 10000, 10000, 9800], "antes": [0, 0, 0, 0, 0, 0, 0, 0], "blinds_or_straddles": [200, 400, 0, 0, 0, 0, 0, 0], "bring_in": 0, "small_bet": 0, "big_bet": 0, "min_bet": 400, "ante_trimming": true, "small_blind": 200, "big_blind": 400, "chip_unit": 200, "dead_players": [], "event_heads_up": false, "seats": [5, 6, 7, 8, 9, 1, 3, 4], "policy": {"limit_raise_cap": 3, "limit_cap_heads_up": true, "bba_order": "ante-first", "pl_preflop_assume_full_blinds": true, "pl_count_antes_in_pot": true, "limit_short_allin_counts_to_cap": true, "stud_high_hand_tie": "suit", "stud_4th_street_double": false, "odd_chip_multi": "all-to-first", "stud_odd_chip_card_set": "five-card", "identical_hands_both_ways": "split-whole", "straddle_min_raise": "double-straddle"}}','[{"seat": 5, "player_id": 5, "name": "Ed"}, {"seat": 6, "player_id": 7, "name": "Gus"}, {"seat": 7, "player_id": 6, "name": "Flo"}, {"seat": 8, "player_id": 4, "name": "Di"}, {"seat": 9, "player_id": 10, "name": "Jo"}, {"seat": 1, "player_id": 9, "name": "Ida"}, {"seat": 3, "player_id": 12, "name": "Lu"}, {"seat": 4, "player_id": 16, "name": "Pia"}]','{"kind": "level", "duration_seconds": 1200, "game": "PO", "small_blind": 200, "big_blind": 400, "ante": 0, "big_blind_ante": false, "small_bet": 0, "big_bet": 0, "bring_in": 0, "note": "", "index": 1, "is_break": false, "level_number": 2, "game_label": "pot-limit Omaha", "stakes_label": "200/400"}','{"button": 4, "small_blind": 5, "big_blind": 6}','finished',37,36,'{"5": 2800, "7": -400, "6": -400, "4": -400, "10": -400, "9": -400, "12": -400, "16": -400}',NULL,'2026-12-01 15:26:27.023627','2026-12-01 15:26:27.220374');
INSERT INTO "dealer_hand" VALUES(3,1,1,1,3,'PO','{"game": "PO", "starting_stacks": [9600, 9600, 9600, 9600, 9600, 9600, 9400, 13000], "antes": [0, 0, 0, 0, 0, 0, 0, 0], "blinds_or_straddles": [200, 400, 0, 0, 0, 0, 0, 0], "bring_in": 0, "small_bet": 0, "big_bet": 0, "min_bet": 400, "ante_trimming": true, "small_blind": 200, "big_blind": 400, "chip_unit": 200, "dead_players": [], "event_heads_up": false, "seats": [6, 7, 8, 9, 1, 3, 4, 5], "policy": {"limit_raise_cap": 3, "limit_cap_heads_up": true, "bba_order": "ante-first", "pl_preflop_assume_full_blinds": true, "pl_count_antes_in_pot": true, "limit_short_allin_counts_to_cap": true, "stud_high_hand_tie": "suit", "stud_4th_street_double": false, "odd_chip_multi": "all-to-first", "stud_odd_chip_card_set": "five-card", "identical_hands_both_ways": "split-whole", "straddle_min_raise": "double-straddle"}}','[{"seat": 6, "player_id": 7, "name": "Gus"}, {"seat": 7, "player_id": 6, "name": "Flo"}, {"seat": 8, "player_id": 4, "name": "Di"}, {"seat": 9, "player_id": 10, "name": "Jo"}, {"seat": 1, "player_id": 9, "name": "Ida"}, {"seat": 3, "player_id": 12, "name": "Lu"}, {"seat": 4, "player_id": 16, "name": "Pia"}, {"seat": 5, "player_id": 5, "name": "Ed"}]','{"kind": "level", "duration_seconds": 1200, "game": "PO", "small_blind": 200, "big_blind": 400, "ante": 0, "big_blind_ante": false, "small_bet": 0, "big_bet": 0, "bring_in": 0, "note": "", "index": 1, "is_break": false, "level_number": 2, "game_label": "pot-limit Omaha", "stakes_label": "200/400"}','{"button": 5, "small_blind": 6, "big_blind": 7}','playing',5,3,NULL,NULL,'2026-12-01 15:26:27.225656',NULL);
CREATE TABLE dealer_hand_event (
	id INTEGER NOT NULL, 
	hand_id INTEGER NOT NULL, 
	seq INTEGER NOT NULL, 
	event JSON NOT NULL, 
	idempotency_key VARCHAR(100), 
	response TEXT, 
	undone BOOLEAN NOT NULL, 
	created_at DATETIME NOT NULL, 
	PRIMARY KEY (id), 
	UNIQUE (hand_id, seq), 
	FOREIGN KEY(hand_id) REFERENCES dealer_hand (id) ON DELETE CASCADE, 
	UNIQUE (idempotency_key)
);
INSERT INTO "dealer_hand_event" VALUES(1,1,1,'{"type": "action", "player": 2, "action": "fold"}','h0-0','{"hand_id":1,"version":2,"game":"PO","to_act":7,"legal":{"fold":true,"check":false,"call":400,"min_to":800,"max_to":1400,"pot_to":1400,"all_in_to":10000,"bring_in":false,"complete_to":null},"pots":[{"name":"Main pot","amount":400,"eligible":[4,5,7,8,9,1,3]}],"seats":[{"seat":4,"name":"Pia","player_id":16,"stack":9800,"bet":200,"status":"active","cards":[],"up_cards":[]},{"seat":5,"name":"Ed","player_id":5,"stack":9600,"bet":400,"status":"active","cards":[],"up_cards":[]},{"seat":6,"name":"Gus","player_id":7,"stack":10000,"bet":0,"status":"folded","cards":[],"up_cards":[]},{"seat":7,"name":"Flo","player_id":6,"stack":10000,"bet":0,"status":"active","cards":[],"up_cards":[]},{"seat":8,"name":"Di","player_id":4,"stack":10000,"bet":0,"status":"active","cards":[],"up_cards":[]},{"seat":9,"name":"Jo","player_id":10,"stack":10000,"bet":0,"status":"active","cards":[],"up_cards":[]},{"seat":1,"name":"Ida","player_id":9,"stack":10000,"bet":0,"status":"active","cards":[],"up_cards":[]},{"seat":3,"name":"Lu","player_id":12,"stack":10000,"bet":0,"status":"active","cards":[],"up_cards":[]}],"board":[],"finished":false,"awards":[],"table_id":1,"table_number":1,"hand_number":1,"game_label":"Pot-limit Omaha","level":{"level_number":2,"stakes_label":"200/400","index":1},"positions":{"button":3,"small_blind":4,"big_blind":5},"to_act_name":"Flo","street":"pre-flop","phase":"betting","awaiting":null,"misdeal":false,"pot_total":600,"current_bet":400,"buttons":[{"action":"fold","amount":null,"label":"Fold"},{"action":"call","amount":null,"label":"Call 400"},{"action":"raise","amount":800,"label":"Min raise to 800"},{"action":"raise","amount":1400,"label":"Pot: raise to 1,400"}],"prompt":"Seat 7 (Flo) to act","showdown_order":[],"showdown_at_once":false,"award_text":[],"clock_call":null,"can_undo":true,"log":[{"at":"2026-12-01T15:26:26.991944Z","who":"director","text":"Seat 6 (Gus) folds"},{"at":"2026-12-01T15:26:26.987566Z","who":"director","text":"Hand 1 dealt: Pot-limit Omaha, level 2 (200/400); button seat 3"}]}',0,'2026-12-01 15:26:26.991944');
INSERT INTO "dealer_hand_event" VALUES(2,1,2,'{"type": "action", "player": 3, "action": "fold"}','h0-1','{"hand_id":1,"version":3,"game":"PO","to_act":8,"legal":{"fold":true,"check":false,"call":400,"min_to":800,"max_to":1400,"pot_to":1400,"all_in_to":10000,"bring_in":false,"complete_to":null},"pots":[{"name":"Main pot","amount":400,"eligible":[4,5,8,9,1,3]}],"seats":[{"seat":4,"name":"Pia","player_id":16,"stack":9800,"bet":200,"status":"active","cards":[],"up_cards":[]},{"seat":5,"name":"Ed","player_id":5,"stack":9600,"bet":400,"status":"active","cards":[],"up_cards":[]},{"seat":6,"name":"Gus","player_id":7,"stack":10000,"bet":0,"status":"folded","cards":[],"up_cards":[]},{"seat":7,"name":"Flo","player_id":6,"stack":10000,"bet":0,"status":"folded","cards":[],"up_cards":[]},{"seat":8,"name":"Di","player_id":4,"stack":10000,"bet":0,"status":"active","cards":[],"up_cards":[]},{"seat":9,"name":"Jo","player_id":10,"stack":10000,"bet":0,"status":"active","cards":[],"up_cards":[]},{"seat":1,"name":"Ida","player_id":9,"stack":10000,"bet":0,"status":"active","cards":[],"up_cards":[]},{"seat":3,"name":"Lu","player_id":12,"stack":10000,"bet":0,"status":"active","cards":[],"up_cards":[]}],"board":[],"finished":false,"awards":[],"table_id":1,"table_number":1,"hand_number":1,"game_label":"Pot-limit Omaha","level":{"level_number":2,"stakes_label":"200/400","index":1},"positions":{"button":3,"small_blind":4,"big_blind":5},"to_act_name":"Di","street":"pre-flop","phase":"betting","awaiting":null,"misdeal":false,"pot_total":600,"current_bet":400,"buttons":[{"action":"fold","amount":null,"label":"Fold"},{"action":"call","amount":null,"label":"Call 400"},{"action":"raise","amount":800,"label":"Min raise to 800"},{"action":"raise","amount":1400,"label":"Pot: raise to 1,400"}],"prompt":"Seat 8 (Di) to act","showdown_order":[],"showdown_at_once":false,"award_text":[],"clock_call":null,"can_undo":true,"log":[{"at":"2026-12-01T15:26:26.994025Z","who":"director","text":"Seat 7 (Flo) folds"},{"at":"2026-12-01T15:26:26.991944Z","who":"director","text":"Seat 6 (Gus) folds"},{"at":"2026-12-01T15:26:26.987566Z","who":"director","text":"Hand 1 dealt: Pot-limit Omaha, level 2 (200/400); button seat 3"}]}',0,'2026-12-01 15:26:26.994025');
INSERT INTO "dealer_hand_event" VALUES(3,1,3,'{"type": "action", "player": 4, "action": "fold"}','h0-2','{"hand_id":1,"version":4,"game":"PO","to_act":9,"legal":{"fold":true,"check":false,"call":400,"min_to":800,"max_to":1400,"pot_to":1400,"all_in_to":10000,"bring_in":false,"complete_to":null},"pots":[{"name":"Main pot","amount":400,"eligible":[4,5,9,1,3]}],"seats":[{"seat":4,"name":"Pia","player_id":16,"stack":9800,"bet":200,"status":"active","cards":[],"up_cards":[]},{"seat":5,"name":"Ed","player_id":5,"stack":9600,"bet":400,"status":"active","cards":[],"up_cards":[]},{"seat":6,"name":"Gus","player_id":7,"stack":10000,"bet":0,"status":"folded","cards":[],"up_cards":[]},{"seat":7,"name":"Flo","player_id":6,"stack":10000,"bet":0,"status":"folded","cards":[],"up_cards":[]},{"seat":8,"name":"Di","player_id":4,"stack":10000,"bet":0,"status":"folded","cards":[],"up_cards":[]},{"seat":9,"name":"Jo","player_id":10,"stack":10000,"bet":0,"status":"active","cards":[],"up_cards":[]},{"seat":1,"name":"Ida","player_id":9,"stack":10000,"bet":0,"status":"active","cards":[],"up_cards":[]},{"seat":3,"name":"Lu","player_id":12,"stack":10000,"bet":0,"status":"active","cards":[],"up_cards":[]}],"board":[],"finished":false,"awards":[],"table_id":1,"table_number":1,"hand_number":1,"game_label":"Pot-limit Omaha","level":{"level_number":2,"stakes_label":"200/400","index":1},"positions":{"button":3,"small_blind":4,"big_blind":5},"to_act_name":"Jo","street":"pre-flop","phase":"betting","awaiting":null,"misdeal":false,"pot_total":600,"current_bet":400,"buttons":[{"action":"fold","amount":null,"label":"Fold"},{"action":"call","amount":null,"label":"Call 400"},{"action":"raise","amount":800,"label":"Min raise to 800"},{"action":"raise","amount":1400,"label":"Pot: raise to 1,400"}],"prompt":"Seat 9 (Jo) to act","showdown_order":[],"showdown_at_once":false,"award_text":[],"clock_call":null,"can_undo":true,"log":[{"at":"2026-12-01T15:26:26.995911Z","who":"director","text":"Seat 8 (Di) folds"},{"at":"2026-12-01T15:26:26.994025Z","who":"director","text":"Seat 7 (Flo) folds"},{"at":"2026-12-01T15:26:26.991944Z","who":"director","text":"Seat 6 (Gus) folds"},{"at":"2026-12-01T15:26:26.987566Z","who":"director","text":"Hand 1 dealt: Pot-limit Omaha, level 2 (200/400); button seat 3"}]}',0,'2026-12-01 15:26:26.995911');
INSERT INTO "dealer_hand_event" VALUES(4,1,4,'{"type": "action", "player": 5, "action": "fold"}','h0-3','{"hand_id":1,"version":5,"game":"PO","to_act":1,"legal":{"fold":true,"check":false,"call":400,"min_to":800,"max_to":1400,"pot_to":1400,"all_in_to":10000,"bring_in":false,"complete_to":null},"pots":[{"name":"Main pot","amount":400,"eligible":[4,5,1,3]}],"seats":[{"seat":4,"name":"Pia","player_id":16,"stack":9800,"bet":200,"status":"active","cards":[],"up_cards":[]},{"seat":5,"name":"Ed","player_id":5,"stack":9600,"bet":400,"status":"active","cards":[],"up_cards":[]},{"seat":6,"name":"Gus","player_id":7,"stack":10000,"bet":0,"status":"folded","cards":[],"up_cards":[]},{"seat":7,"name":"Flo","player_id":6,"stack":10000,"bet":0,"status":"folded","cards":[],"up_cards":[]},{"seat":8,"name":"Di","player_id":4,"stack":10000,"bet":0,"status":"folded","cards":[],"up_cards":[]},{"seat":9,"name":"Jo","player_id":10,"stack":10000,"bet":0,"status":"folded","cards":[],"up_cards":[]},{"seat":1,"name":"Ida","player_id":9,"stack":10000,"bet":0,"status":"active","cards":[],"up_cards":[]},{"seat":3,"name":"Lu","player_id":12,"stack":10000,"bet":0,"status":"active","cards":[],"up_cards":[]}],"board":[],"finished":false,"awards":[],"table_id":1,"table_number":1,"hand_number":1,"game_label":"Pot-limit Omaha","level":{"level_number":2,"stakes_label":"200/400","index":1},"positions":{"button":3,"small_blind":4,"big_blind":5},"to_act_name":"Ida","street":"pre-flop","phase":"betting","awaiting":null,"misdeal":false,"pot_total":600,"current_bet":400,"buttons":[{"action":"fold","amount":null,"label":"Fold"},{"action":"call","amount":null,"label":"Call 400"},{"action":"raise","amount":800,"label":"Min raise to 800"},{"action":"raise","amount":1400,"label":"Pot: raise to 1,400"}],"prompt":"Seat 1 (Ida) to act","showdown_order":[],"showdown_at_once":false,"award_text":[],"clock_call":null,"can_undo":true,"log":[{"at":"2026-12-01T15:26:26.997715Z","who":"director","text":"Seat 9 (Jo) folds"},{"at":"2026-12-01T15:26:26.995911Z","who":"director","text":"Seat 8 (Di) folds"},{"at":"2026-12-01T15:26:26.994025Z","who":"director","text":"Seat 7 (Flo) folds"},{"at":"2026-12-01T15:26:26.991944Z","who":"director","text":"Seat 6 (Gus) folds"},{"at":"2026-12-01T15:26:26.987566Z","who":"director","text":"Hand 1 dealt: Pot-limit Omaha, level 2 (200/400); button seat 3"}]}',0,'2026-12-01 15:26:26.997715');
INSERT INTO "dealer_hand_event" VALUES(5,1,5,'{"type": "action", "player": 6, "action": "fold"}','h0-4','{"hand_id":1,"version":6,"game":"PO","to_act":3,"legal":{"fold":true,"check":false,"call":400,"min_to":800,"max_to":1400,"pot_to":1400,"all_in_to":10000,"bring_in":false,"complete_to":null},"pots":[{"name":"Main pot","amount":400,"eligible":[4,5,3]}],"seats":[{"seat":4,"name":"Pia","player_id":16,"stack":9800,"bet":200,"status":"active","cards":[],"up_cards":[]},{"seat":5,"name":"Ed","player_id":5,"stack":9600,"bet":400,"status":"active","cards":[],"up_cards":[]},{"seat":6,"name":"Gus","player_id":7,"stack":10000,"bet":0,"status":"folded","cards":[],"up_cards":[]},{"seat":7,"name":"Flo","player_id":6,"stack":10000,"bet":0,"status":"folded","cards":[],"up_cards":[]},{"seat":8,"name":"Di","player_id":4,"stack":10000,"bet":0,"status":"folded","cards":[],"up_cards":[]},{"seat":9,"name":"Jo","player_id":10,"stack":10000,"bet":0,"status":"folded","cards":[],"up_cards":[]},{"seat":1,"name":"Ida","player_id":9,"stack":10000,"bet":0,"status":"folded","cards":[],"up_cards":[]},{"seat":3,"name":"Lu","player_id":12,"stack":10000,"bet":0,"status":"active","cards":[],"up_cards":[]}],"board":[],"finished":false,"awards":[],"table_id":1,"table_number":1,"hand_number":1,"game_label":"Pot-limit Omaha","level":{"level_number":2,"stakes_label":"200/400","index":1},"positions":{"button":3,"small_blind":4,"big_blind":5},"to_act_name":"Lu","street":"pre-flop","phase":"betting","awaiting":null,"misdeal":false,"pot_total":600,"current_bet":400,"buttons":[{"action":"fold","amount":null,"label":"Fold"},{"action":"call","amount":null,"label":"Call 400"},{"action":"raise","amount":800,"label":"Min raise to 800"},{"action":"raise","amount":1400,"label":"Pot: raise to 1,400"}],"prompt":"Seat 3 (Lu) to act","showdown_order":[],"showdown_at_once":false,"award_text":[],"clock_call":null,"can_undo":true,"log":[{"at":"2026-12-01T15:26:26.999439Z","who":"director","text":"Seat 1 (Ida) folds"},{"at":"2026-12-01T15:26:26.997715Z","who":"director","text":"Seat 9 (Jo) folds"},{"at":"2026-12-01T15:26:26.995911Z","who":"director","text":"Seat 8 (Di) folds"},{"at":"2026-12-01T15:26:26.994025Z","who":"director","text":"Seat 7 (Flo) folds"},{"at":"2026-12-01T15:26:26.991944Z","who":"director","text":"Seat 6 (Gus) folds"},{"at":"2026-12-01T15:26:26.987566Z","who":"director","text":"Hand 1 dealt: Pot-limit Omaha, level 2 (200/400); button seat 3"}]}',0,'2026-12-01 15:26:26.999439');
INSERT INTO "dealer_hand_event" VALUES(6,1,6,'{"type": "action", "player": 7, "action": "fold"}','h0-5','{"hand_id":1,"version":7,"game":"PO","to_act":4,"legal":{"fold":true,"check":false,"call":200,"min_to":800,"max_to":1200,"pot_to":1200,"all_in_to":10000,"bring_in":false,"complete_to":null},"pots":[{"name":"Main pot","amount":400,"eligible":[4,5]}],"seats":[{"seat":4,"name":"Pia","player_id":16,"stack":9800,"bet":200,"status":"active","cards":[],"up_cards":[]},{"seat":5,"name":"Ed","player_id":5,"stack":9600,"bet":400,"status":"active","cards":[],"up_cards":[]},{"seat":6,"name":"Gus","player_id":7,"stack":10000,"bet":0,"status":"folded","cards":[],"up_cards":[]},{"seat":7,"name":"Flo","player_id":6,"stack":10000,"bet":0,"status":"folded","cards":[],"up_cards":[]},{"seat":8,"name":"Di","player_id":4,"stack":10000,"bet":0,"status":"folded","cards":[],"up_cards":[]},{"seat":9,"name":"Jo","player_id":10,"stack":10000,"bet":0,"status":"folded","cards":[],"up_cards":[]},{"seat":1,"name":"Ida","player_id":9,"stack":10000,"bet":0,"status":"folded","cards":[],"up_cards":[]},{"seat":3,"name":"Lu","player_id":12,"stack":10000,"bet":0,"status":"folded","cards":[],"up_cards":[]}],"board":[],"finished":false,"awards":[],"table_id":1,"table_number":1,"hand_number":1,"game_label":"Pot-limit Omaha","level":{"level_number":2,"stakes_label":"200/400","index":1},"positions":{"button":3,"small_blind":4,"big_blind":5},"to_act_name":"Pia","street":"pre-flop","phase":"betting","awaiting":null,"misdeal":false,"pot_total":600,"current_bet":400,"buttons":[{"action":"fold","amount":null,"label":"Fold"},{"action":"call","amount":null,"label":"Call 200"},{"action":"raise","amount":800,"label":"Min raise to 800"},{"action":"raise","amount":1200,"label":"Pot: raise to 1,200"}],"prompt":"Seat 4 (Pia) to act","showdown_order":[],"showdown_at_once":false,"award_text":[],"clock_call":null,"can_undo":true,"log":[{"at":"2026-12-01T15:26:27.003852Z","who":"director","text":"Seat 3 (Lu) folds"},{"at":"2026-12-01T15:26:26.999439Z","who":"director","text":"Seat 1 (Ida) folds"},{"at":"2026-12-01T15:26:26.997715Z","who":"director","text":"Seat 9 (Jo) folds"},{"at":"2026-12-01T15:26:26.995911Z","who":"director","text":"Seat 8 (Di) folds"},{"at":"2026-12-01T15:26:26.994025Z","who":"director","text":"Seat 7 (Flo) folds"},{"at":"2026-12-01T15:26:26.991944Z","who":"director","text":"Seat 6 (Gus) folds"},{"at":"2026-12-01T15:26:26.987566Z","who":"director","text":"Hand 1 dealt: Pot-limit Omaha, level 2 (200/400); button seat 3"}]}',0,'2026-12-01 15:26:27.003852');
INSERT INTO "dealer_hand_event" VALUES(7,1,7,'{"type": "action", "player": 0, "action": "fold"}','h0-6','{"hand_id":1,"version":8,"game":"PO","to_act":null,"legal":{"fold":false,"check":false,"call":null,"min_to":null,"max_to":null,"pot_to":null,"all_in_to":null,"bring_in":false,"complete_to":null},"pots":[{"name":"Main pot","amount":400,"eligible":[5]}],"seats":[{"seat":4,"name":"Pia","player_id":16,"stack":9800,"bet":200,"status":"folded","cards":[],"up_cards":[]},{"seat":5,"name":"Ed","player_id":5,"stack":10200,"bet":400,"status":"active","cards":[],"up_cards":[]},{"seat":6,"name":"Gus","player_id":7,"stack":10000,"bet":0,"status":"folded","cards":[],"up_cards":[]},{"seat":7,"name":"Flo","player_id":6,"stack":10000,"bet":0,"status":"folded","cards":[],"up_cards":[]},{"seat":8,"name":"Di","player_id":4,"stack":10000,"bet":0,"status":"folded","cards":[],"up_cards":[]},{"seat":9,"name":"Jo","player_id":10,"stack":10000,"bet":0,"status":"folded","cards":[],"up_cards":[]},{"seat":1,"name":"Ida","player_id":9,"stack":10000,"bet":0,"status":"folded","cards":[],"up_cards":[]},{"seat":3,"name":"Lu","player_id":12,"stack":10000,"bet":0,"status":"folded","cards":[],"up_cards":[]}],"board":[],"finished":true,"awards":[{"pot":"Main pot","pot_amount":400,"half":"whole","seat":5,"name":"Ed","amount":400,"hand":null,"hand_label":"","odd_chips":0}],"table_id":1,"table_number":1,"hand_number":1,"game_label":"Pot-limit Omaha","level":{"level_number":2,"stakes_label":"200/400","index":1},"positions":{"button":3,"small_blind":4,"big_blind":5},"to_act_name":null,"street":"pre-flop","phase":"finished","awaiting":null,"misdeal":false,"pot_total":600,"current_bet":400,"buttons":[],"prompt":"The hand is over. Push the pots, then start the next hand.","showdown_order":[],"showdown_at_once":false,"award_text":["Main pot 400: to seat 5 (Ed), uncontested, 400"],"clock_call":null,"can_undo":true,"log":[{"at":"2026-12-01T15:26:27.012519Z","who":"engine","text":"Main pot 400: to seat 5 (Ed), uncontested, 400"},{"at":"2026-12-01T15:26:27.012519Z","who":"director","text":"Seat 4 (Pia) folds"},{"at":"2026-12-01T15:26:27.003852Z","who":"director","text":"Seat 3 (Lu) folds"},{"at":"2026-12-01T15:26:26.999439Z","who":"director","text":"Seat 1 (Ida) folds"},{"at":"2026-12-01T15:26:26.997715Z","who":"director","text":"Seat 9 (Jo) folds"},{"at":"2026-12-01T15:26:26.995911Z","who":"director","text":"Seat 8 (Di) folds"},{"at":"2026-12-01T15:26:26.994025Z","who":"director","text":"Seat 7 (Flo) folds"},{"at":"2026-12-01T15:26:26.991944Z","who":"director","text":"Seat 6 (Gus) folds"},{"at":"2026-12-01T15:26:26.987566Z","who":"director","text":"Hand 1 dealt: Pot-limit Omaha, level 2 (200/400); button seat 3"}]}',0,'2026-12-01 15:26:27.012519');
INSERT INTO "dealer_hand_event" VALUES(8,2,1,'{"type": "action", "player": 2, "action": "call"}','h1-0','{"hand_id":2,"version":2,"game":"PO","to_act":8,"legal":{"fold":true,"check":false,"call":400,"min_to":800,"max_to":1800,"pot_to":1800,"all_in_to":10000,"bring_in":false,"complete_to":null},"pots":[{"name":"Main pot","amount":1000,"eligible":[5,6,7,8,9,1,3,4]}],"seats":[{"seat":5,"name":"Ed","player_id":5,"stack":10000,"bet":200,"status":"active","cards":[],"up_cards":[]},{"seat":6,"name":"Gus","player_id":7,"stack":9600,"bet":400,"status":"active","cards":[],"up_cards":[]},{"seat":7,"name":"Flo","player_id":6,"stack":9600,"bet":400,"status":"active","cards":[],"up_cards":[]},{"seat":8,"name":"Di","player_id":4,"stack":10000,"bet":0,"status":"active","cards":[],"up_cards":[]},{"seat":9,"name":"Jo","player_id":10,"stack":10000,"bet":0,"status":"active","cards":[],"up_cards":[]},{"seat":1,"name":"Ida","player_id":9,"stack":10000,"bet":0,"status":"active","cards":[],"up_cards":[]},{"seat":3,"name":"Lu","player_id":12,"stack":10000,"bet":0,"status":"active","cards":[],"up_cards":[]},{"seat":4,"name":"Pia","player_id":16,"stack":9800,"bet":0,"status":"active","cards":[],"up_cards":[]}],"board":[],"finished":false,"awards":[],"table_id":1,"table_number":1,"hand_number":2,"game_label":"Pot-limit Omaha","level":{"level_number":2,"stakes_label":"200/400","index":1},"positions":{"button":4,"small_blind":5,"big_blind":6},"to_act_name":"Di","street":"pre-flop","phase":"betting","awaiting":null,"misdeal":false,"pot_total":1000,"current_bet":400,"buttons":[{"action":"fold","amount":null,"label":"Fold"},{"action":"call","amount":null,"label":"Call 400"},{"action":"raise","amount":800,"label":"Min raise to 800"},{"action":"raise","amount":1800,"label":"Pot: raise to 1,800"}],"prompt":"Seat 8 (Di) to act","showdown_order":[],"showdown_at_once":false,"award_text":[],"clock_call":null,"can_undo":true,"log":[{"at":"2026-12-01T15:26:27.028958Z","who":"director","text":"Seat 7 (Flo) calls"},{"at":"2026-12-01T15:26:27.023627Z","who":"director","text":"Hand 2 dealt: Pot-limit Omaha, level 2 (200/400); button seat 4"}]}',0,'2026-12-01 15:26:27.028958');
INSERT INTO "dealer_hand_event" VALUES(9,2,2,'{"type": "action", "player": 3, "action": "call"}','h1-1','{"hand_id":2,"version":3,"game":"PO","to_act":9,"legal":{"fold":true,"check":false,"call":400,"min_to":800,"max_to":2200,"pot_to":2200,"all_in_to":10000,"bring_in":false,"complete_to":null},"pots":[{"name":"Main pot","amount":1400,"eligible":[5,6,7,8,9,1,3,4]}],"seats":[{"seat":5,"name":"Ed","player_id":5,"stack":10000,"bet":200,"status":"active","cards":[],"up_cards":[]},{"seat":6,"name":"Gus","player_id":7,"stack":9600,"bet":400,"status":"active","cards":[],"up_cards":[]},{"seat":7,"name":"Flo","player_id":6,"stack":9600,"bet":400,"status":"active","cards":[],"up_cards":[]},{"seat":8,"name":"Di","player_id":4,"stack":9600,"bet":400,"status":"active","cards":[],"up_cards":[]},{"seat":9,"name":"Jo","player_id":10,"stack":10000,"bet":0,"status":"active","cards":[],"up_cards":[]},{"seat":1,"name":"Ida","player_id":9,"stack":10000,"bet":0,"status":"active","cards":[],"up_cards":[]},{"seat":3,"name":"Lu","player_id":12,"stack":10000,"bet":0,"status":"active","cards":[],"up_cards":[]},{"seat":4,"name":"Pia","player_id":16,"stack":9800,"bet":0,"status":"active","cards":[],"up_cards":[]}],"board":[],"finished":false,"awards":[],"table_id":1,"table_number":1,"hand_number":2,"game_label":"Pot-limit Omaha","level":{"level_number":2,"stakes_label":"200/400","index":1},"positions":{"button":4,"small_blind":5,"big_blind":6},"to_act_name":"Jo","street":"pre-flop","phase":"betting","awaiting":null,"misdeal":false,"pot_total":1400,"current_bet":400,"buttons":[{"action":"fold","amount":null,"label":"Fold"},{"action":"call","amount":null,"label":"Call 400"},{"action":"raise","amount":800,"label":"Min raise to 800"},{"action":"raise","amount":2200,"label":"Pot: raise to 2,200"}],"prompt":"Seat 9 (Jo) to act","showdown_order":[],"showdown_at_once":false,"award_text":[],"clock_call":null,"can_undo":true,"log":[{"at":"2026-12-01T15:26:27.032247Z","who":"director","text":"Seat 8 (Di) calls"},{"at":"2026-12-01T15:26:27.028958Z","who":"director","text":"Seat 7 (Flo) calls"},{"at":"2026-12-01T15:26:27.023627Z","who":"director","text":"Hand 2 dealt: Pot-limit Omaha, level 2 (200/400); button seat 4"}]}',0,'2026-12-01 15:26:27.032247');
INSERT INTO "dealer_hand_event" VALUES(10,2,3,'{"type": "action", "player": 4, "action": "call"}','h1-2','{"hand_id":2,"version":4,"game":"PO","to_act":1,"legal":{"fold":true,"check":false,"call":400,"min_to":800,"max_to":2600,"pot_to":2600,"all_in_to":10000,"bring_in":false,"complete_to":null},"pots":[{"name":"Main pot","amount":1800,"eligible":[5,6,7,8,9,1,3,4]}],"seats":[{"seat":5,"name":"Ed","player_id":5,"stack":10000,"bet":200,"status":"active","cards":[],"up_cards":[]},{"seat":6,"name":"Gus","player_id":7,"stack":9600,"bet":400,"status":"active","cards":[],"up_cards":[]},{"seat":7,"name":"Flo","player_id":6,"stack":9600,"bet":400,"status":"active","cards":[],"up_cards":[]},{"seat":8,"name":"Di","player_id":4,"stack":9600,"bet":400,"status":"active","cards":[],"up_cards":[]},{"seat":9,"name":"Jo","player_id":10,"stack":9600,"bet":400,"status":"active","cards":[],"up_cards":[]},{"seat":1,"name":"Ida","player_id":9,"stack":10000,"bet":0,"status":"active","cards":[],"up_cards":[]},{"seat":3,"name":"Lu","player_id":12,"stack":10000,"bet":0,"status":"active","cards":[],"up_cards":[]},{"seat":4,"name":"Pia","player_id":16,"stack":9800,"bet":0,"status":"active","cards":[],"up_cards":[]}],"board":[],"finished":false,"awards":[],"table_id":1,"table_number":1,"hand_number":2,"game_label":"Pot-limit Omaha","level":{"level_number":2,"stakes_label":"200/400","index":1},"positions":{"button":4,"small_blind":5,"big_blind":6},"to_act_name":"Ida","street":"pre-flop","phase":"betting","awaiting":null,"misdeal":false,"pot_total":1800,"current_bet":400,"buttons":[{"action":"fold","amount":null,"label":"Fold"},{"action":"call","amount":null,"label":"Call 400"},{"action":"raise","amount":800,"label":"Min raise to 800"},{"action":"raise","amount":2600,"label":"Pot: raise to 2,600"}],"prompt":"Seat 1 (Ida) to act","showdown_order":[],"showdown_at_once":false,"award_text":[],"clock_call":null,"can_undo":true,"log":[{"at":"2026-12-01T15:26:27.034621Z","who":"director","text":"Seat 9 (Jo) calls"},{"at":"2026-12-01T15:26:27.032247Z","who":"director","text":"Seat 8 (Di) calls"},{"at":"2026-12-01T15:26:27.028958Z","who":"director","text":"Seat 7 (Flo) calls"},{"at":"2026-12-01T15:26:27.023627Z","who":"director","text":"Hand 2 dealt: Pot-limit Omaha, level 2 (200/400); button seat 4"}]}',0,'2026-12-01 15:26:27.034621');
INSERT INTO "dealer_hand_event" VALUES(11,2,4,'{"type": "action", "player": 5, "action": "call"}','h1-3','{"hand_id":2,"version":5,"game":"PO","to_act":3,"legal":{"fold":true,"check":false,"call":400,"min_to":800,"max_to":3000,"pot_to":3000,"all_in_to":10000,"bring_in":false,"complete_to":null},"pots":[{"name":"Main pot","amount":2200,"eligible":[5,6,7,8,9,1,3,4]}],"seats":[{"seat":5,"name":"Ed","player_id":5,"stack":10000,"bet":200,"status":"active","cards":[],"up_cards":[]},{"seat":6,"name":"Gus","player_id":7,"stack":9600,"bet":400,"status":"active","cards":[],"up_cards":[]},{"seat":7,"name":"Flo","player_id":6,"stack":9600,"bet":400,"status":"active","cards":[],"up_cards":[]},{"seat":8,"name":"Di","player_id":4,"stack":9600,"bet":400,"status":"active","cards":[],"up_cards":[]},{"seat":9,"name":"Jo","player_id":10,"stack":9600,"bet":400,"status":"active","cards":[],"up_cards":[]},{"seat":1,"name":"Ida","player_id":9,"stack":9600,"bet":400,"status":"active","cards":[],"up_cards":[]},{"seat":3,"name":"Lu","player_id":12,"stack":10000,"bet":0,"status":"active","cards":[],"up_cards":[]},{"seat":4,"name":"Pia","player_id":16,"stack":9800,"bet":0,"status":"active","cards":[],"up_cards":[]}],"board":[],"finished":false,"awards":[],"table_id":1,"table_number":1,"hand_number":2,"game_label":"Pot-limit Omaha","level":{"level_number":2,"stakes_label":"200/400","index":1},"positions":{"button":4,"small_blind":5,"big_blind":6},"to_act_name":"Lu","street":"pre-flop","phase":"betting","awaiting":null,"misdeal":false,"pot_total":2200,"current_bet":400,"buttons":[{"action":"fold","amount":null,"label":"Fold"},{"action":"call","amount":null,"label":"Call 400"},{"action":"raise","amount":800,"label":"Min raise to 800"},{"action":"raise","amount":3000,"label":"Pot: raise to 3,000"}],"prompt":"Seat 3 (Lu) to act","showdown_order":[],"showdown_at_once":false,"award_text":[],"clock_call":null,"can_undo":true,"log":[{"at":"2026-12-01T15:26:27.042307Z","who":"director","text":"Seat 1 (Ida) calls"},{"at":"2026-12-01T15:26:27.034621Z","who":"director","text":"Seat 9 (Jo) calls"},{"at":"2026-12-01T15:26:27.032247Z","who":"director","text":"Seat 8 (Di) calls"},{"at":"2026-12-01T15:26:27.028958Z","who":"director","text":"Seat 7 (Flo) calls"},{"at":"2026-12-01T15:26:27.023627Z","who":"director","text":"Hand 2 dealt: Pot-limit Omaha, level 2 (200/400); button seat 4"}]}',0,'2026-12-01 15:26:27.042307');
INSERT INTO "dealer_hand_event" VALUES(12,2,5,'{"type": "action", "player": 6, "action": "call"}','h1-4','{"hand_id":2,"version":6,"game":"PO","to_act":4,"legal":{"fold":true,"check":false,"call":400,"min_to":800,"max_to":3400,"pot_to":3400,"all_in_to":9800,"bring_in":false,"complete_to":null},"pots":[{"name":"Main pot","amount":2600,"eligible":[5,6,7,8,9,1,3,4]}],"seats":[{"seat":5,"name":"Ed","player_id":5,"stack":10000,"bet":200,"status":"active","cards":[],"up_cards":[]},{"seat":6,"name":"Gus","player_id":7,"stack":9600,"bet":400,"status":"active","cards":[],"up_cards":[]},{"seat":7,"name":"Flo","player_id":6,"stack":9600,"bet":400,"status":"active","cards":[],"up_cards":[]},{"seat":8,"name":"Di","player_id":4,"stack":9600,"bet":400,"status":"active","cards":[],"up_cards":[]},{"seat":9,"name":"Jo","player_id":10,"stack":9600,"bet":400,"status":"active","cards":[],"up_cards":[]},{"seat":1,"name":"Ida","player_id":9,"stack":9600,"bet":400,"status":"active","cards":[],"up_cards":[]},{"seat":3,"name":"Lu","player_id":12,"stack":9600,"bet":400,"status":"active","cards":[],"up_cards":[]},{"seat":4,"name":"Pia","player_id":16,"stack":9800,"bet":0,"status":"active","cards":[],"up_cards":[]}],"board":[],"finished":false,"awards":[],"table_id":1,"table_number":1,"hand_number":2,"game_label":"Pot-limit Omaha","level":{"level_number":2,"stakes_label":"200/400","index":1},"positions":{"button":4,"small_blind":5,"big_blind":6},"to_act_name":"Pia","street":"pre-flop","phase":"betting","awaiting":null,"misdeal":false,"pot_total":2600,"current_bet":400,"buttons":[{"action":"fold","amount":null,"label":"Fold"},{"action":"call","amount":null,"label":"Call 400"},{"action":"raise","amount":800,"label":"Min raise to 800"},{"action":"raise","amount":3400,"label":"Pot: raise to 3,400"}],"prompt":"Seat 4 (Pia) to act","showdown_order":[],"showdown_at_once":false,"award_text":[],"clock_call":null,"can_undo":true,"log":[{"at":"2026-12-01T15:26:27.045629Z","who":"director","text":"Seat 3 (Lu) calls"},{"at":"2026-12-01T15:26:27.042307Z","who":"director","text":"Seat 1 (Ida) calls"},{"at":"2026-12-01T15:26:27.034621Z","who":"director","text":"Seat 9 (Jo) calls"},{"at":"2026-12-01T15:26:27.032247Z","who":"director","text":"Seat 8 (Di) calls"},{"at":"2026-12-01T15:26:27.028958Z","who":"director","text":"Seat 7 (Flo) calls"},{"at":"2026-12-01T15:26:27.023627Z","who":"director","text":"Hand 2 dealt: Pot-limit Omaha, level 2 (200/400); button seat 4"}]}',0,'2026-12-01 15:26:27.045629');
INSERT INTO "dealer_hand_event" VALUES(13,2,6,'{"type": "action", "player": 7, "action": "call"}','h1-5','{"hand_id":2,"version":7,"game":"PO","to_act":5,"legal":{"fold":true,"check":false,"call":200,"min_to":800,"max_to":3600,"pot_to":3600,"all_in_to":10200,"bring_in":false,"complete_to":null},"pots":[{"name":"Main pot","amount":3000,"eligible":[5,6,7,8,9,1,3,4]}],"seats":[{"seat":5,"name":"Ed","player_id":5,"stack":10000,"bet":200,"status":"active","cards":[],"up_cards":[]},{"seat":6,"name":"Gus","player_id":7,"stack":9600,"bet":400,"status":"active","cards":[],"up_cards":[]},{"seat":7,"name":"Flo","player_id":6,"stack":9600,"bet":400,"status":"active","cards":[],"up_cards":[]},{"seat":8,"name":"Di","player_id":4,"stack":9600,"bet":400,"status":"active","cards":[],"up_cards":[]},{"seat":9,"name":"Jo","player_id":10,"stack":9600,"bet":400,"status":"active","cards":[],"up_cards":[]},{"seat":1,"name":"Ida","player_id":9,"stack":9600,"bet":400,"status":"active","cards":[],"up_cards":[]},{"seat":3,"name":"Lu","player_id":12,"stack":9600,"bet":400,"status":"active","cards":[],"up_cards":[]},{"seat":4,"name":"Pia","player_id":16,"stack":9400,"bet":400,"status":"active","cards":[],"up_cards":[]}],"board":[],"finished":false,"awards":[],"table_id":1,"table_number":1,"hand_number":2,"game_label":"Pot-limit Omaha","level":{"level_number":2,"stakes_label":"200/400","index":1},"positions":{"button":4,"small_blind":5,"big_blind":6},"to_act_name":"Ed","street":"pre-flop","phase":"betting","awaiting":null,"misdeal":false,"pot_total":3000,"current_bet":400,"buttons":[{"action":"fold","amount":null,"label":"Fold"},{"action":"call","amount":null,"label":"Call 200"},{"action":"raise","amount":800,"label":"Min raise to 800"},{"action":"raise","amount":3600,"label":"Pot: raise to 3,600"}],"prompt":"Seat 5 (Ed) to act","showdown_order":[],"showdown_at_once":false,"award_text":[],"clock_call":null,"can_undo":true,"log":[{"at":"2026-12-01T15:26:27.052341Z","who":"director","text":"Seat 4 (Pia) calls"},{"at":"2026-12-01T15:26:27.045629Z","who":"director","text":"Seat 3 (Lu) calls"},{"at":"2026-12-01T15:26:27.042307Z","who":"director","text":"Seat 1 (Ida) calls"},{"at":"2026-12-01T15:26:27.034621Z","who":"director","text":"Seat 9 (Jo) calls"},{"at":"2026-12-01T15:26:27.032247Z","who":"director","text":"Seat 8 (Di) calls"},{"at":"2026-12-01T15:26:27.028958Z","who":"director","text":"Seat 7 (Flo) calls"},{"at":"2026-12-01T15:26:27.023627Z","who":"director","text":"Hand 2 dealt: Pot-limit Omaha, level 2 (200/400); button seat 4"}]}',0,'2026-12-01 15:26:27.052341');
INSERT INTO "dealer_hand_event" VALUES(14,2,7,'{"type": "action", "player": 0, "action": "call"}','h1-6','{"hand_id":2,"version":8,"game":"PO","to_act":6,"legal":{"fold":true,"check":true,"call":null,"min_to":800,"max_to":3600,"pot_to":3600,"all_in_to":10000,"bring_in":false,"complete_to":null},"pots":[{"name":"Main pot","amount":3200,"eligible":[5,6,7,8,9,1,3,4]}],"seats":[{"seat":5,"name":"Ed","player_id":5,"stack":9800,"bet":400,"status":"active","cards":[],"up_cards":[]},{"seat":6,"name":"Gus","player_id":7,"stack":9600,"bet":400,"status":"active","cards":[],"up_cards":[]},{"seat":7,"name":"Flo","player_id":6,"stack":9600,"bet":400,"status":"active","cards":[],"up_cards":[]},{"seat":8,"name":"Di","player_id":4,"stack":9600,"bet":400,"status":"active","cards":[],"up_cards":[]},{"seat":9,"name":"Jo","player_id":10,"stack":9600,"bet":400,"status":"active","cards":[],"up_cards":[]},{"seat":1,"name":"Ida","player_id":9,"stack":9600,"bet":400,"status":"active","cards":[],"up_cards":[]},{"seat":3,"name":"Lu","player_id":12,"stack":9600,"bet":400,"status":"active","cards":[],"up_cards":[]},{"seat":4,"name":"Pia","player_id":16,"stack":9400,"bet":400,"status":"active","cards":[],"up_cards":[]}],"board":[],"finished":false,"awards":[],"table_id":1,"table_number":1,"hand_number":2,"game_label":"Pot-limit Omaha","level":{"level_number":2,"stakes_label":"200/400","index":1},"positions":{"button":4,"small_blind":5,"big_blind":6},"to_act_name":"Gus","street":"pre-flop","phase":"betting","awaiting":null,"misdeal":false,"pot_total":3200,"current_bet":400,"buttons":[{"action":"fold","amount":null,"label":"Fold"},{"action":"check","amount":null,"label":"Check"},{"action":"raise","amount":800,"label":"Min raise to 800"},{"action":"raise","amount":3600,"label":"Pot: raise to 3,600"}],"prompt":"Seat 6 (Gus) to act","showdown_order":[],"showdown_at_once":false,"award_text":[],"clock_call":null,"can_undo":true,"log":[{"at":"2026-12-01T15:26:27.056415Z","who":"director","text":"Seat 5 (Ed) calls"},{"at":"2026-12-01T15:26:27.052341Z","who":"director","text":"Seat 4 (Pia) calls"},{"at":"2026-12-01T15:26:27.045629Z","who":"director","text":"Seat 3 (Lu) calls"},{"at":"2026-12-01T15:26:27.042307Z","who":"director","text":"Seat 1 (Ida) calls"},{"at":"2026-12-01T15:26:27.034621Z","who":"director","text":"Seat 9 (Jo) calls"},{"at":"2026-12-01T15:26:27.032247Z","who":"director","text":"Seat 8 (Di) calls"},{"at":"2026-12-01T15:26:27.028958Z","who":"director","text":"Seat 7 (Flo) calls"},{"at":"2026-12-01T15:26:27.023627Z","who":"director","text":"Hand 2 dealt: Pot-limit Omaha, level 2 (200/400); button seat 4"}]}',0,'2026-12-01 15:26:27.056415');
INSERT INTO "dealer_hand_event" VALUES(15,2,8,'{"type": "action", "player": 1, "action": "check"}','h1-7','{"hand_id":2,"version":9,"game":"PO","to_act":null,"legal":{"fold":false,"check":false,"call":null,"min_to":null,"max_to":null,"pot_to":null,"all_in_to":null,"bring_in":false,"complete_to":null},"pots":[{"name":"Main pot","amount":3200,"eligible":[5,6,7,8,9,1,3,4]}],"seats":[{"seat":5,"name":"Ed","player_id":5,"stack":9800,"bet":400,"status":"active","cards":[],"up_cards":[]},{"seat":6,"name":"Gus","player_id":7,"stack":9600,"bet":400,"status":"active","cards":[],"up_cards":[]},{"seat":7,"name":"Flo","player_id":6,"stack":9600,"bet":400,"status":"active","cards":[],"up_cards":[]},{"seat":8,"name":"Di","player_id":4,"stack":9600,"bet":400,"status":"active","cards":[],"up_cards":[]},{"seat":9,"name":"Jo","player_id":10,"stack":9600,"bet":400,"status":"active","cards":[],"up_cards":[]},{"seat":1,"name":"Ida","player_id":9,"stack":9600,"bet":400,"status":"active","cards":[],"up_cards":[]},{"seat":3,"name":"Lu","player_id":12,"stack":9600,"bet":400,"status":"active","cards":[],"up_cards":[]},{"seat":4,"name":"Pia","player_id":16,"stack":9400,"bet":400,"status":"active","cards":[],"up_cards":[]}],"board":[],"finished":false,"awards":[],"table_id":1,"table_number":1,"hand_number":2,"game_label":"Pot-limit Omaha","level":{"level_number":2,"stakes_label":"200/400","index":1},"positions":{"button":4,"small_blind":5,"big_blind":6},"to_act_name":null,"street":"flop","phase":"dealing","awaiting":"board","misdeal":false,"pot_total":3200,"current_bet":400,"buttons":[],"prompt":"Burn and deal the flop","showdown_order":[],"showdown_at_once":false,"award_text":[],"clock_call":null,"can_undo":true,"log":[{"at":"2026-12-01T15:26:27.059473Z","who":"director","text":"Seat 6 (Gus) checks"},{"at":"2026-12-01T15:26:27.056415Z","who":"director","text":"Seat 5 (Ed) calls"},{"at":"2026-12-01T15:26:27.052341Z","who":"director","text":"Seat 4 (Pia) calls"},{"at":"2026-12-01T15:26:27.045629Z","who":"director","text":"Seat 3 (Lu) calls"},{"at":"2026-12-01T15:26:27.042307Z","who":"director","text":"Seat 1 (Ida) calls"},{"at":"2026-12-01T15:26:27.034621Z","who":"director","text":"Seat 9 (Jo) calls"},{"at":"2026-12-01T15:26:27.032247Z","who":"director","text":"Seat 8 (Di) calls"},{"at":"2026-12-01T15:26:27.028958Z","who":"director","text":"Seat 7 (Flo) calls"},{"at":"2026-12-01T15:26:27.023627Z","who":"director","text":"Hand 2 dealt: Pot-limit Omaha, level 2 (200/400); button seat 4"}]}',0,'2026-12-01 15:26:27.059473');
INSERT INTO "dealer_hand_event" VALUES(16,2,9,'{"type": "deal_board", "cards": ["??", "??", "??"]}',NULL,NULL,0,'2026-12-01 15:26:27.073337');
INSERT INTO "dealer_hand_event" VALUES(17,2,10,'{"type": "action", "player": 0, "action": "check"}',NULL,NULL,0,'2026-12-01 15:26:27.076410');
INSERT INTO "dealer_hand_event" VALUES(18,2,11,'{"type": "action", "player": 1, "action": "check"}',NULL,NULL,0,'2026-12-01 15:26:27.084325');
INSERT INTO "dealer_hand_event" VALUES(19,2,12,'{"type": "action", "player": 2, "action": "check"}',NULL,NULL,0,'2026-12-01 15:26:27.087220');
INSERT INTO "dealer_hand_event" VALUES(20,2,13,'{"type": "action", "player": 3, "action": "check"}',NULL,NULL,0,'2026-12-01 15:26:27.091856');
INSERT INTO "dealer_hand_event" VALUES(21,2,14,'{"type": "action", "player": 4, "action": "check"}',NULL,NULL,0,'2026-12-01 15:26:27.094021');
INSERT INTO "dealer_hand_event" VALUES(22,2,15,'{"type": "action", "player": 5, "action": "check"}',NULL,NULL,0,'2026-12-01 15:26:27.100309');
INSERT INTO "dealer_hand_event" VALUES(23,2,16,'{"type": "action", "player": 6, "action": "check"}',NULL,NULL,0,'2026-12-01 15:26:27.108217');
INSERT INTO "dealer_hand_event" VALUES(24,2,17,'{"type": "action", "player": 7, "action": "check"}',NULL,NULL,0,'2026-12-01 15:26:27.119696');
INSERT INTO "dealer_hand_event" VALUES(25,2,18,'{"type": "deal_board", "cards": ["??"]}',NULL,NULL,0,'2026-12-01 15:26:27.131945');
INSERT INTO "dealer_hand_event" VALUES(26,2,19,'{"type": "action", "player": 0, "action": "check"}',NULL,NULL,0,'2026-12-01 15:26:27.136300');
INSERT INTO "dealer_hand_event" VALUES(27,2,20,'{"type": "action", "player": 1, "action": "check"}',NULL,NULL,0,'2026-12-01 15:26:27.140114');
INSERT INTO "dealer_hand_event" VALUES(28,2,21,'{"type": "action", "player": 2, "action": "check"}',NULL,NULL,0,'2026-12-01 15:26:27.145730');
INSERT INTO "dealer_hand_event" VALUES(29,2,22,'{"type": "action", "player": 3, "action": "check"}',NULL,NULL,0,'2026-12-01 15:26:27.152195');
INSERT INTO "dealer_hand_event" VALUES(30,2,23,'{"type": "action", "player": 4, "action": "check"}',NULL,NULL,0,'2026-12-01 15:26:27.156808');
INSERT INTO "dealer_hand_event" VALUES(31,2,24,'{"type": "action", "player": 5, "action": "check"}',NULL,NULL,0,'2026-12-01 15:26:27.164289');
INSERT INTO "dealer_hand_event" VALUES(32,2,25,'{"type": "action", "player": 6, "action": "check"}',NULL,NULL,0,'2026-12-01 15:26:27.167078');
INSERT INTO "dealer_hand_event" VALUES(33,2,26,'{"type": "action", "player": 7, "action": "check"}',NULL,NULL,0,'2026-12-01 15:26:27.169166');
INSERT INTO "dealer_hand_event" VALUES(34,2,27,'{"type": "deal_board", "cards": ["??"]}',NULL,NULL,0,'2026-12-01 15:26:27.172010');
INSERT INTO "dealer_hand_event" VALUES(35,2,28,'{"type": "action", "player": 0, "action": "check"}',NULL,NULL,0,'2026-12-01 15:26:27.177022');
INSERT INTO "dealer_hand_event" VALUES(36,2,29,'{"type": "action", "player": 1, "action": "check"}',NULL,NULL,0,'2026-12-01 15:26:27.184643');
INSERT INTO "dealer_hand_event" VALUES(37,2,30,'{"type": "action", "player": 2, "action": "check"}',NULL,NULL,0,'2026-12-01 15:26:27.187444');
INSERT INTO "dealer_hand_event" VALUES(38,2,31,'{"type": "action", "player": 3, "action": "check"}',NULL,NULL,0,'2026-12-01 15:26:27.194358');
INSERT INTO "dealer_hand_event" VALUES(39,2,32,'{"type": "action", "player": 4, "action": "check"}',NULL,NULL,0,'2026-12-01 15:26:27.198323');
INSERT INTO "dealer_hand_event" VALUES(40,2,33,'{"type": "action", "player": 5, "action": "check"}',NULL,NULL,0,'2026-12-01 15:26:27.204111');
INSERT INTO "dealer_hand_event" VALUES(41,2,34,'{"type": "action", "player": 6, "action": "check"}',NULL,NULL,0,'2026-12-01 15:26:27.209621');
INSERT INTO "dealer_hand_event" VALUES(42,2,35,'{"type": "action", "player": 7, "action": "check"}',NULL,NULL,0,'2026-12-01 15:26:27.216658');
INSERT INTO "dealer_hand_event" VALUES(43,2,36,'{"type": "manual_award", "high": [[0]], "low": []}',NULL,NULL,0,'2026-12-01 15:26:27.220374');
INSERT INTO "dealer_hand_event" VALUES(44,3,1,'{"type": "action", "player": 2, "action": "call"}','h2-0','{"hand_id":3,"version":2,"game":"PO","to_act":9,"legal":{"fold":true,"check":false,"call":400,"min_to":800,"max_to":1800,"pot_to":1800,"all_in_to":9600,"bring_in":false,"complete_to":null},"pots":[{"name":"Main pot","amount":1000,"eligible":[6,7,8,9,1,3,4,5]}],"seats":[{"seat":6,"name":"Gus","player_id":7,"stack":9400,"bet":200,"status":"active","cards":[],"up_cards":[]},{"seat":7,"name":"Flo","player_id":6,"stack":9200,"bet":400,"status":"active","cards":[],"up_cards":[]},{"seat":8,"name":"Di","player_id":4,"stack":9200,"bet":400,"status":"active","cards":[],"up_cards":[]},{"seat":9,"name":"Jo","player_id":10,"stack":9600,"bet":0,"status":"active","cards":[],"up_cards":[]},{"seat":1,"name":"Ida","player_id":9,"stack":9600,"bet":0,"status":"active","cards":[],"up_cards":[]},{"seat":3,"name":"Lu","player_id":12,"stack":9600,"bet":0,"status":"active","cards":[],"up_cards":[]},{"seat":4,"name":"Pia","player_id":16,"stack":9400,"bet":0,"status":"active","cards":[],"up_cards":[]},{"seat":5,"name":"Ed","player_id":5,"stack":13000,"bet":0,"status":"active","cards":[],"up_cards":[]}],"board":[],"finished":false,"awards":[],"table_id":1,"table_number":1,"hand_number":3,"game_label":"Pot-limit Omaha","level":{"level_number":2,"stakes_label":"200/400","index":1},"positions":{"button":5,"small_blind":6,"big_blind":7},"to_act_name":"Jo","street":"pre-flop","phase":"betting","awaiting":null,"misdeal":false,"pot_total":1000,"current_bet":400,"buttons":[{"action":"fold","amount":null,"label":"Fold"},{"action":"call","amount":null,"label":"Call 400"},{"action":"raise","amount":800,"label":"Min raise to 800"},{"action":"raise","amount":1800,"label":"Pot: raise to 1,800"}],"prompt":"Seat 9 (Jo) to act","showdown_order":[],"showdown_at_once":false,"award_text":[],"clock_call":null,"can_undo":true,"log":[{"at":"2026-12-01T15:26:27.232644Z","who":"director","text":"Seat 8 (Di) calls"},{"at":"2026-12-01T15:26:27.225656Z","who":"director","text":"Hand 3 dealt: Pot-limit Omaha, level 2 (200/400); button seat 5"}]}',0,'2026-12-01 15:26:27.232644');
INSERT INTO "dealer_hand_event" VALUES(45,3,2,'{"type": "action", "player": 3, "action": "call"}','h2-1','{"hand_id":3,"version":3,"game":"PO","to_act":1,"legal":{"fold":true,"check":false,"call":400,"min_to":800,"max_to":2200,"pot_to":2200,"all_in_to":9600,"bring_in":false,"complete_to":null},"pots":[{"name":"Main pot","amount":1400,"eligible":[6,7,8,9,1,3,4,5]}],"seats":[{"seat":6,"name":"Gus","player_id":7,"stack":9400,"bet":200,"status":"active","cards":[],"up_cards":[]},{"seat":7,"name":"Flo","player_id":6,"stack":9200,"bet":400,"status":"active","cards":[],"up_cards":[]},{"seat":8,"name":"Di","player_id":4,"stack":9200,"bet":400,"status":"active","cards":[],"up_cards":[]},{"seat":9,"name":"Jo","player_id":10,"stack":9200,"bet":400,"status":"active","cards":[],"up_cards":[]},{"seat":1,"name":"Ida","player_id":9,"stack":9600,"bet":0,"status":"active","cards":[],"up_cards":[]},{"seat":3,"name":"Lu","player_id":12,"stack":9600,"bet":0,"status":"active","cards":[],"up_cards":[]},{"seat":4,"name":"Pia","player_id":16,"stack":9400,"bet":0,"status":"active","cards":[],"up_cards":[]},{"seat":5,"name":"Ed","player_id":5,"stack":13000,"bet":0,"status":"active","cards":[],"up_cards":[]}],"board":[],"finished":false,"awards":[],"table_id":1,"table_number":1,"hand_number":3,"game_label":"Pot-limit Omaha","level":{"level_number":2,"stakes_label":"200/400","index":1},"positions":{"button":5,"small_blind":6,"big_blind":7},"to_act_name":"Ida","street":"pre-flop","phase":"betting","awaiting":null,"misdeal":false,"pot_total":1400,"current_bet":400,"buttons":[{"action":"fold","amount":null,"label":"Fold"},{"action":"call","amount":null,"label":"Call 400"},{"action":"raise","amount":800,"label":"Min raise to 800"},{"action":"raise","amount":2200,"label":"Pot: raise to 2,200"}],"prompt":"Seat 1 (Ida) to act","showdown_order":[],"showdown_at_once":false,"award_text":[],"clock_call":null,"can_undo":true,"log":[{"at":"2026-12-01T15:26:27.237277Z","who":"director","text":"Seat 9 (Jo) calls"},{"at":"2026-12-01T15:26:27.232644Z","who":"director","text":"Seat 8 (Di) calls"},{"at":"2026-12-01T15:26:27.225656Z","who":"director","text":"Hand 3 dealt: Pot-limit Omaha, level 2 (200/400); button seat 5"}]}',0,'2026-12-01 15:26:27.237277');
INSERT INTO "dealer_hand_event" VALUES(46,3,3,'{"type": "action", "player": 4, "action": "call"}','h2-2','{"hand_id":3,"version":4,"game":"PO","to_act":3,"legal":{"fold":true,"check":false,"call":400,"min_to":800,"max_to":2600,"pot_to":2600,"all_in_to":9600,"bring_in":false,"complete_to":null},"pots":[{"name":"Main pot","amount":1800,"eligible":[6,7,8,9,1,3,4,5]}],"seats":[{"seat":6,"name":"Gus","player_id":7,"stack":9400,"bet":200,"status":"active","cards":[],"up_cards":[]},{"seat":7,"name":"Flo","player_id":6,"stack":9200,"bet":400,"status":"active","cards":[],"up_cards":[]},{"seat":8,"name":"Di","player_id":4,"stack":9200,"bet":400,"status":"active","cards":[],"up_cards":[]},{"seat":9,"name":"Jo","player_id":10,"stack":9200,"bet":400,"status":"active","cards":[],"up_cards":[]},{"seat":1,"name":"Ida","player_id":9,"stack":9200,"bet":400,"status":"active","cards":[],"up_cards":[]},{"seat":3,"name":"Lu","player_id":12,"stack":9600,"bet":0,"status":"active","cards":[],"up_cards":[]},{"seat":4,"name":"Pia","player_id":16,"stack":9400,"bet":0,"status":"active","cards":[],"up_cards":[]},{"seat":5,"name":"Ed","player_id":5,"stack":13000,"bet":0,"status":"active","cards":[],"up_cards":[]}],"board":[],"finished":false,"awards":[],"table_id":1,"table_number":1,"hand_number":3,"game_label":"Pot-limit Omaha","level":{"level_number":2,"stakes_label":"200/400","index":1},"positions":{"button":5,"small_blind":6,"big_blind":7},"to_act_name":"Lu","street":"pre-flop","phase":"betting","awaiting":null,"misdeal":false,"pot_total":1800,"current_bet":400,"buttons":[{"action":"fold","amount":null,"label":"Fold"},{"action":"call","amount":null,"label":"Call 400"},{"action":"raise","amount":800,"label":"Min raise to 800"},{"action":"raise","amount":2600,"label":"Pot: raise to 2,600"}],"prompt":"Seat 3 (Lu) to act","showdown_order":[],"showdown_at_once":false,"award_text":[],"clock_call":null,"can_undo":true,"log":[{"at":"2026-12-01T15:26:27.239435Z","who":"director","text":"Seat 1 (Ida) calls"},{"at":"2026-12-01T15:26:27.237277Z","who":"director","text":"Seat 9 (Jo) calls"},{"at":"2026-12-01T15:26:27.232644Z","who":"director","text":"Seat 8 (Di) calls"},{"at":"2026-12-01T15:26:27.225656Z","who":"director","text":"Hand 3 dealt: Pot-limit Omaha, level 2 (200/400); button seat 5"}]}',1,'2026-12-01 15:26:27.239435');
CREATE TABLE dealer_hand_log (
	id INTEGER NOT NULL, 
	hand_id INTEGER NOT NULL, 
	at DATETIME NOT NULL, 
	who VARCHAR(20) NOT NULL, 
	text TEXT NOT NULL, 
	PRIMARY KEY (id), 
	FOREIGN KEY(hand_id) REFERENCES dealer_hand (id) ON DELETE CASCADE
);
INSERT INTO "dealer_hand_log" VALUES(1,1,'2026-12-01 15:26:26.987566','director','Hand 1 dealt: Pot-limit Omaha, level 2 (200/400); button seat 3');
INSERT INTO "dealer_hand_log" VALUES(2,1,'2026-12-01 15:26:26.991944','director','Seat 6 (Gus) folds');
INSERT INTO "dealer_hand_log" VALUES(3,1,'2026-12-01 15:26:26.994025','director','Seat 7 (Flo) folds');
INSERT INTO "dealer_hand_log" VALUES(4,1,'2026-12-01 15:26:26.995911','director','Seat 8 (Di) folds');
INSERT INTO "dealer_hand_log" VALUES(5,1,'2026-12-01 15:26:26.997715','director','Seat 9 (Jo) folds');
INSERT INTO "dealer_hand_log" VALUES(6,1,'2026-12-01 15:26:26.999439','director','Seat 1 (Ida) folds');
INSERT INTO "dealer_hand_log" VALUES(7,1,'2026-12-01 15:26:27.003852','director','Seat 3 (Lu) folds');
INSERT INTO "dealer_hand_log" VALUES(8,1,'2026-12-01 15:26:27.012519','director','Seat 4 (Pia) folds');
INSERT INTO "dealer_hand_log" VALUES(9,1,'2026-12-01 15:26:27.012519','engine','Main pot 400: to seat 5 (Ed), uncontested, 400');
INSERT INTO "dealer_hand_log" VALUES(10,2,'2026-12-01 15:26:27.023627','director','Hand 2 dealt: Pot-limit Omaha, level 2 (200/400); button seat 4');
INSERT INTO "dealer_hand_log" VALUES(11,2,'2026-12-01 15:26:27.028958','director','Seat 7 (Flo) calls');
INSERT INTO "dealer_hand_log" VALUES(12,2,'2026-12-01 15:26:27.032247','director','Seat 8 (Di) calls');
INSERT INTO "dealer_hand_log" VALUES(13,2,'2026-12-01 15:26:27.034621','director','Seat 9 (Jo) calls');
INSERT INTO "dealer_hand_log" VALUES(14,2,'2026-12-01 15:26:27.042307','director','Seat 1 (Ida) calls');
INSERT INTO "dealer_hand_log" VALUES(15,2,'2026-12-01 15:26:27.045629','director','Seat 3 (Lu) calls');
INSERT INTO "dealer_hand_log" VALUES(16,2,'2026-12-01 15:26:27.052341','director','Seat 4 (Pia) calls');
INSERT INTO "dealer_hand_log" VALUES(17,2,'2026-12-01 15:26:27.056415','director','Seat 5 (Ed) calls');
INSERT INTO "dealer_hand_log" VALUES(18,2,'2026-12-01 15:26:27.059473','director','Seat 6 (Gus) checks');
INSERT INTO "dealer_hand_log" VALUES(19,2,'2026-12-01 15:26:27.073337','director','Board: ?? ?? ??');
INSERT INTO "dealer_hand_log" VALUES(20,2,'2026-12-01 15:26:27.076410','director','Seat 5 (Ed) checks');
INSERT INTO "dealer_hand_log" VALUES(21,2,'2026-12-01 15:26:27.084325','director','Seat 6 (Gus) checks');
INSERT INTO "dealer_hand_log" VALUES(22,2,'2026-12-01 15:26:27.087220','director','Seat 7 (Flo) checks');
INSERT INTO "dealer_hand_log" VALUES(23,2,'2026-12-01 15:26:27.091856','director','Seat 8 (Di) checks');
INSERT INTO "dealer_hand_log" VALUES(24,2,'2026-12-01 15:26:27.094021','director','Seat 9 (Jo) checks');
INSERT INTO "dealer_hand_log" VALUES(25,2,'2026-12-01 15:26:27.100309','director','Seat 1 (Ida) checks');
INSERT INTO "dealer_hand_log" VALUES(26,2,'2026-12-01 15:26:27.108217','director','Seat 3 (Lu) checks');
INSERT INTO "dealer_hand_log" VALUES(27,2,'2026-12-01 15:26:27.119696','director','Seat 4 (Pia) checks');
INSERT INTO "dealer_hand_log" VALUES(28,2,'2026-12-01 15:26:27.131945','director','Board: ??');
INSERT INTO "dealer_hand_log" VALUES(29,2,'2026-12-01 15:26:27.136300','director','Seat 5 (Ed) checks');
INSERT INTO "dealer_hand_log" VALUES(30,2,'2026-12-01 15:26:27.140114','director','Seat 6 (Gus) checks');
INSERT INTO "dealer_hand_log" VALUES(31,2,'2026-12-01 15:26:27.145730','director','Seat 7 (Flo) checks');
INSERT INTO "dealer_hand_log" VALUES(32,2,'2026-12-01 15:26:27.152195','director','Seat 8 (Di) checks');
INSERT INTO "dealer_hand_log" VALUES(33,2,'2026-12-01 15:26:27.156808','director','Seat 9 (Jo) checks');
INSERT INTO "dealer_hand_log" VALUES(34,2,'2026-12-01 15:26:27.164289','director','Seat 1 (Ida) checks');
INSERT INTO "dealer_hand_log" VALUES(35,2,'2026-12-01 15:26:27.167078','director','Seat 3 (Lu) checks');
INSERT INTO "dealer_hand_log" VALUES(36,2,'2026-12-01 15:26:27.169166','director','Seat 4 (Pia) checks');
INSERT INTO "dealer_hand_log" VALUES(37,2,'2026-12-01 15:26:27.172010','director','Board: ??');
INSERT INTO "dealer_hand_log" VALUES(38,2,'2026-12-01 15:26:27.177022','director','Seat 5 (Ed) checks');
INSERT INTO "dealer_hand_log" VALUES(39,2,'2026-12-01 15:26:27.184643','director','Seat 6 (Gus) checks');
INSERT INTO "dealer_hand_log" VALUES(40,2,'2026-12-01 15:26:27.187444','director','Seat 7 (Flo) checks');
INSERT INTO "dealer_hand_log" VALUES(41,2,'2026-12-01 15:26:27.194358','director','Seat 8 (Di) checks');
INSERT INTO "dealer_hand_log" VALUES(42,2,'2026-12-01 15:26:27.198323','director','Seat 9 (Jo) checks');
INSERT INTO "dealer_hand_log" VALUES(43,2,'2026-12-01 15:26:27.204111','director','Seat 1 (Ida) checks');
INSERT INTO "dealer_hand_log" VALUES(44,2,'2026-12-01 15:26:27.209621','director','Seat 3 (Lu) checks');
INSERT INTO "dealer_hand_log" VALUES(45,2,'2026-12-01 15:26:27.216658','director','Seat 4 (Pia) checks');
INSERT INTO "dealer_hand_log" VALUES(46,2,'2026-12-01 15:26:27.220374','director','Pots awarded by hand');
INSERT INTO "dealer_hand_log" VALUES(47,2,'2026-12-01 15:26:27.220374','engine','Main pot 3,200: to seat 5 (Ed), chosen by the dealer, 3,200');
INSERT INTO "dealer_hand_log" VALUES(48,3,'2026-12-01 15:26:27.225656','director','Hand 3 dealt: Pot-limit Omaha, level 2 (200/400); button seat 5');
INSERT INTO "dealer_hand_log" VALUES(49,3,'2026-12-01 15:26:27.232644','director','Seat 8 (Di) calls');
INSERT INTO "dealer_hand_log" VALUES(50,3,'2026-12-01 15:26:27.237277','director','Seat 9 (Jo) calls');
INSERT INTO "dealer_hand_log" VALUES(51,3,'2026-12-01 15:26:27.239435','director','Seat 1 (Ida) calls');
INSERT INTO "dealer_hand_log" VALUES(52,3,'2026-12-01 15:26:27.252021','director','Undo: Seat 1 (Ida) calls');
CREATE TABLE dealer_pairing (
	table_id INTEGER NOT NULL, 
	tournament_id INTEGER NOT NULL, 
	code VARCHAR(12) NOT NULL, 
	created_at DATETIME NOT NULL, 
	PRIMARY KEY (table_id), 
	FOREIGN KEY(tournament_id) REFERENCES tournament (id) ON DELETE CASCADE, 
	UNIQUE (code)
);
INSERT INTO "dealer_pairing" VALUES(1,1,'808373','2026-12-01 15:26:26.976501');
INSERT INTO "dealer_pairing" VALUES(2,1,'804249','2026-12-01 15:26:26.978144');
CREATE TABLE dealer_request (
	id INTEGER NOT NULL, 
	idempotency_key VARCHAR(100) NOT NULL, 
	hand_id INTEGER NOT NULL, 
	response TEXT NOT NULL, 
	created_at DATETIME NOT NULL, 
	PRIMARY KEY (id), 
	UNIQUE (idempotency_key), 
	FOREIGN KEY(hand_id) REFERENCES dealer_hand (id) ON DELETE CASCADE
);
INSERT INTO "dealer_request" VALUES(1,'undo-1',3,'{"hand_id": 3, "version": 5, "game": "PO", "to_act": 1, "legal": {"fold": true, "check": false, "call": 400, "min_to": 800, "max_to": 2200, "pot_to": 2200, "all_in_to": 9600, "bring_in": false, "complete_to": null}, "pots": [{"name": "Main pot", "amount": 1400, "eligible": [6, 7, 8, 9, 1, 3, 4, 5]}], "seats": [{"seat": 6, "name": "Gus", "player_id": 7, "stack": 9400, "bet": 200, "status": "active", "cards": [], "up_cards": []}, {"seat": 7, "name": "Flo", "player_id": 6, "stack": 9200, "bet": 400, "status": "active", "cards": [], "up_cards": []}, {"seat": 8, "name": "Di", "player_id": 4, "stack": 9200, "bet": 400, "status": "active", "cards": [], "up_cards": []}, {"seat": 9, "name": "Jo", "player_id": 10, "stack": 9200, "bet": 400, "status": "active", "cards": [], "up_cards": []}, {"seat": 1, "name": "Ida", "player_id": 9, "stack": 9600, "bet": 0, "status": "active", "cards": [], "up_cards": []}, {"seat": 3, "name": "Lu", "player_id": 12, "stack": 9600, "bet": 0, "status": "active", "cards": [], "up_cards": []}, {"seat": 4, "name": "Pia", "player_id": 16, "stack": 9400, "bet": 0, "status": "active", "cards": [], "up_cards": []}, {"seat": 5, "name": "Ed", "player_id": 5, "stack": 13000, "bet": 0, "status": "active", "cards": [], "up_cards": []}], "board": [], "finished": false, "awards": [], "table_id": 1, "table_number": 1, "hand_number": 3, "game_label": "Pot-limit Omaha", "level": {"level_number": 2, "stakes_label": "200/400", "index": 1}, "positions": {"button": 5, "small_blind": 6, "big_blind": 7}, "to_act_name": "Ida", "street": "pre-flop", "phase": "betting", "awaiting": null, "misdeal": false, "pot_total": 1400, "current_bet": 400, "buttons": [{"action": "fold", "amount": null, "label": "Fold"}, {"action": "call", "amount": null, "label": "Call 400"}, {"action": "raise", "amount": 800, "label": "Min raise to 800"}, {"action": "raise", "amount": 2200, "label": "Pot: raise to 2,200"}], "prompt": "Seat 1 (Ida) to act", "showdown_order": [], "showdown_at_once": false, "award_text": [], "clock_call": null, "can_undo": true, "log": [{"at": "2026-12-01T15:26:27.252021Z", "who": "director", "text": "Undo: Seat 1 (Ida) calls"}, {"at": "2026-12-01T15:26:27.239435Z", "who": "director", "text": "Seat 1 (Ida) calls"}, {"at": "2026-12-01T15:26:27.237277Z", "who": "director", "text": "Seat 9 (Jo) calls"}, {"at": "2026-12-01T15:26:27.232644Z", "who": "director", "text": "Seat 8 (Di) calls"}, {"at": "2026-12-01T15:26:27.225656Z", "who": "director", "text": "Hand 3 dealt: Pot-limit Omaha, level 2 (200/400); button seat 5"}]}','2026-12-01 15:26:27.255119');
CREATE TABLE house_rules (
	tournament_id INTEGER NOT NULL, 
	hand JSON NOT NULL, 
	rulings JSON NOT NULL, 
	updated_at DATETIME NOT NULL, 
	version INTEGER NOT NULL, 
	PRIMARY KEY (tournament_id), 
	FOREIGN KEY(tournament_id) REFERENCES tournament (id) ON DELETE CASCADE
);
INSERT INTO "house_rules" VALUES(1,'{"limit_raise_cap": 3, "limit_cap_heads_up": true, "bba_order": "ante-first", "pl_preflop_assume_full_blinds": true, "pl_count_antes_in_pot": true, "limit_short_allin_counts_to_cap": true, "stud_high_hand_tie": "suit", "stud_4th_street_double": false, "odd_chip_multi": "all-to-first", "stud_odd_chip_card_set": "five-card", "identical_hands_both_ways": "split-whole", "straddle_min_raise": "double-straddle"}','{"stud_one_downcard_exposed": "up-card", "stud_two_downcards_exposed": "misdeal", "absent_player_kill_point": "end-of-deal", "clock_seconds": "25+5", "premature_turn_procedure": "reshuffle"}','2026-12-01 15:26:26.905508',2);
CREATE TABLE money_settings (
	tournament_id INTEGER NOT NULL, 
	settings JSON NOT NULL, 
	locked_shares JSON, 
	locked_entries INTEGER, 
	deal JSON, 
	updated_at DATETIME NOT NULL, 
	version INTEGER NOT NULL, 
	PRIMARY KEY (tournament_id), 
	FOREIGN KEY(tournament_id) REFERENCES tournament (id) ON DELETE CASCADE
);
INSERT INTO "money_settings" VALUES(1,'{"currency": "EUR", "unit": 100, "buy_in_prize": 10000, "buy_in_fee": 1000, "starting_stack": 10000, "late_registration_level": 3, "re_entry": false, "re_entry_max": null, "re_entry_until": null, "rebuy": true, "rebuy_prize": 10000, "rebuy_fee": 0, "rebuy_chips": 10000, "rebuy_until": 2, "rebuy_stack_limit": null, "rebuy_max": null, "add_on": false, "add_on_prize": 0, "add_on_fee": 0, "add_on_chips": 0, "add_on_break": 0, "guarantee": 0, "payout_template": "standard", "custom_shares": null}',NULL,NULL,NULL,'2026-12-01 15:26:26.953306',3);
CREATE TABLE payment (
	id INTEGER NOT NULL, 
	tournament_id INTEGER NOT NULL, 
	player_id INTEGER, 
	player_name VARCHAR(80) NOT NULL, 
	person VARCHAR(80) NOT NULL, 
	kind VARCHAR(12) NOT NULL, 
	prize BIGINT NOT NULL, 
	fee BIGINT NOT NULL, 
	chips BIGINT NOT NULL, 
	level INTEGER NOT NULL, 
	note TEXT NOT NULL, 
	request_key VARCHAR(64), 
	created_at DATETIME NOT NULL, 
	undone_at DATETIME, 
	PRIMARY KEY (id), 
	UNIQUE (tournament_id, request_key), 
	FOREIGN KEY(tournament_id) REFERENCES tournament (id) ON DELETE CASCADE, 
	FOREIGN KEY(player_id) REFERENCES player (id) ON DELETE SET NULL
);
INSERT INTO "payment" VALUES(1,1,1,'Ann','ann','buy-in',10000,1000,10000,0,'','buy-0','2026-12-01 15:26:26.521190',NULL);
INSERT INTO "payment" VALUES(2,1,2,'Bo','bo','buy-in',10000,1000,10000,0,'','buy-1','2026-12-01 15:26:26.533641',NULL);
INSERT INTO "payment" VALUES(3,1,3,'Cy','cy','buy-in',10000,1000,10000,0,'','buy-2','2026-12-01 15:26:26.548249',NULL);
INSERT INTO "payment" VALUES(4,1,4,'Di','di','buy-in',10000,1000,10000,0,'','buy-3','2026-12-01 15:26:26.559354',NULL);
INSERT INTO "payment" VALUES(5,1,5,'Ed','ed','buy-in',10000,1000,10000,0,'','buy-4','2026-12-01 15:26:26.570314',NULL);
INSERT INTO "payment" VALUES(6,1,6,'Flo','flo','buy-in',10000,1000,10000,0,'','buy-5','2026-12-01 15:26:26.580819',NULL);
INSERT INTO "payment" VALUES(7,1,7,'Gus','gus','buy-in',10000,1000,10000,0,'','buy-6','2026-12-01 15:26:26.592456',NULL);
INSERT INTO "payment" VALUES(8,1,8,'Hal','hal','buy-in',10000,1000,10000,0,'','buy-7','2026-12-01 15:26:26.603197',NULL);
INSERT INTO "payment" VALUES(9,1,9,'Ida','ida','buy-in',10000,1000,10000,0,'','buy-8','2026-12-01 15:26:26.617182',NULL);
INSERT INTO "payment" VALUES(10,1,10,'Jo','jo','buy-in',10000,1000,10000,0,'','buy-9','2026-12-01 15:26:26.645732',NULL);
INSERT INTO "payment" VALUES(11,1,11,'Kim','kim','buy-in',10000,1000,10000,0,'','buy-10','2026-12-01 15:26:26.686303',NULL);
INSERT INTO "payment" VALUES(12,1,12,'Lu','lu','buy-in',10000,1000,10000,0,'','buy-11','2026-12-01 15:26:26.706075',NULL);
INSERT INTO "payment" VALUES(13,1,13,'Max','max','buy-in',10000,1000,10000,0,'','buy-12','2026-12-01 15:26:26.725509',NULL);
INSERT INTO "payment" VALUES(14,1,14,'Ned','ned','buy-in',10000,1000,10000,0,'','buy-13','2026-12-01 15:26:26.745706',NULL);
INSERT INTO "payment" VALUES(15,1,15,'Oda','oda','buy-in',10000,1000,10000,0,'','buy-14','2026-12-01 15:26:26.765673',NULL);
INSERT INTO "payment" VALUES(16,1,16,'Pia','pia','buy-in',10000,1000,10000,0,'','buy-15','2026-12-01 15:26:26.789866',NULL);
INSERT INTO "payment" VALUES(17,1,16,'Pia','pia','rebuy',10000,0,10000,2,'','rebuy-1','2026-12-01 15:26:26.956111',NULL);
CREATE TABLE player (
	id INTEGER NOT NULL, 
	tournament_id INTEGER NOT NULL, 
	name VARCHAR(80) NOT NULL, 
	chips BIGINT NOT NULL, 
	entry_chips BIGINT NOT NULL, 
	status VARCHAR(16) NOT NULL, 
	place INTEGER, 
	place_last INTEGER, 
	eliminated_at DATETIME, 
	created_at DATETIME NOT NULL, 
	PRIMARY KEY (id), 
	FOREIGN KEY(tournament_id) REFERENCES tournament (id) ON DELETE CASCADE
);
INSERT INTO "player" VALUES(1,1,'Ann',10000,10000,'active',NULL,NULL,NULL,'2026-12-01 15:26:26.508743');
INSERT INTO "player" VALUES(2,1,'Bo',10000,10000,'active',NULL,NULL,NULL,'2026-12-01 15:26:26.529935');
INSERT INTO "player" VALUES(3,1,'Cy',10000,10000,'active',NULL,NULL,NULL,'2026-12-01 15:26:26.540800');
INSERT INTO "player" VALUES(4,1,'Di',9600,10000,'active',NULL,NULL,NULL,'2026-12-01 15:26:26.555556');
INSERT INTO "player" VALUES(5,1,'Ed',13000,10000,'active',NULL,NULL,NULL,'2026-12-01 15:26:26.566265');
INSERT INTO "player" VALUES(6,1,'Flo',9600,10000,'active',NULL,NULL,NULL,'2026-12-01 15:26:26.577199');
INSERT INTO "player" VALUES(7,1,'Gus',9600,10000,'active',NULL,NULL,NULL,'2026-12-01 15:26:26.588679');
INSERT INTO "player" VALUES(8,1,'Hal',10000,10000,'active',NULL,NULL,NULL,'2026-12-01 15:26:26.599294');
INSERT INTO "player" VALUES(9,1,'Ida',9600,10000,'active',NULL,NULL,NULL,'2026-12-01 15:26:26.610532');
INSERT INTO "player" VALUES(10,1,'Jo',9600,10000,'active',NULL,NULL,NULL,'2026-12-01 15:26:26.630244');
INSERT INTO "player" VALUES(11,1,'Kim',10000,10000,'active',NULL,NULL,NULL,'2026-12-01 15:26:26.674128');
INSERT INTO "player" VALUES(12,1,'Lu',9600,10000,'active',NULL,NULL,NULL,'2026-12-01 15:26:26.698973');
INSERT INTO "player" VALUES(13,1,'Max',10000,10000,'active',NULL,NULL,NULL,'2026-12-01 15:26:26.718373');
INSERT INTO "player" VALUES(14,1,'Ned',10000,10000,'active',NULL,NULL,NULL,'2026-12-01 15:26:26.738579');
INSERT INTO "player" VALUES(15,1,'Oda',10000,10000,'eliminated',16,NULL,'2026-12-01 15:26:26.963996','2026-12-01 15:26:26.758334');
INSERT INTO "player" VALUES(16,1,'Pia',9400,10000,'active',NULL,NULL,NULL,'2026-12-01 15:26:26.782027');
CREATE TABLE seat (
	id INTEGER NOT NULL, 
	tournament_id INTEGER NOT NULL, 
	table_id INTEGER NOT NULL, 
	seat INTEGER NOT NULL, 
	player_id INTEGER NOT NULL, 
	waiting BOOLEAN NOT NULL, 
	PRIMARY KEY (id), 
	UNIQUE (table_id, seat), 
	FOREIGN KEY(tournament_id) REFERENCES tournament (id) ON DELETE CASCADE, 
	FOREIGN KEY(table_id) REFERENCES seating_table (id) ON DELETE CASCADE, 
	UNIQUE (player_id), 
	FOREIGN KEY(player_id) REFERENCES player (id) ON DELETE CASCADE
);
INSERT INTO "seat" VALUES(1,1,1,1,9,0);
INSERT INTO "seat" VALUES(2,1,1,3,12,0);
INSERT INTO "seat" VALUES(3,1,1,4,16,0);
INSERT INTO "seat" VALUES(4,1,1,5,5,0);
INSERT INTO "seat" VALUES(5,1,1,6,7,0);
INSERT INTO "seat" VALUES(6,1,1,7,6,0);
INSERT INTO "seat" VALUES(7,1,1,8,4,0);
INSERT INTO "seat" VALUES(8,1,1,9,10,0);
INSERT INTO "seat" VALUES(9,1,2,2,13,0);
INSERT INTO "seat" VALUES(10,1,2,3,1,0);
INSERT INTO "seat" VALUES(12,1,2,5,14,0);
INSERT INTO "seat" VALUES(13,1,2,6,2,0);
INSERT INTO "seat" VALUES(14,1,2,7,8,0);
INSERT INTO "seat" VALUES(15,1,2,8,11,0);
INSERT INTO "seat" VALUES(16,1,2,9,3,0);
CREATE TABLE seating_log (
	id INTEGER NOT NULL, 
	tournament_id INTEGER NOT NULL, 
	at DATETIME NOT NULL, 
	action VARCHAR(30) NOT NULL, 
	text TEXT NOT NULL, 
	PRIMARY KEY (id), 
	FOREIGN KEY(tournament_id) REFERENCES tournament (id) ON DELETE CASCADE
);
INSERT INTO "seating_log" VALUES(1,1,'2026-12-01 15:26:26.464528','settings','Seating settings saved: 9-handed, balance within 1');
INSERT INTO "seating_log" VALUES(2,1,'2026-12-01 15:26:26.515821','register','Ann registered (10,000 chips)');
INSERT INTO "seating_log" VALUES(3,1,'2026-12-01 15:26:26.530733','register','Bo registered (10,000 chips)');
INSERT INTO "seating_log" VALUES(4,1,'2026-12-01 15:26:26.541577','register','Cy registered (10,000 chips)');
INSERT INTO "seating_log" VALUES(5,1,'2026-12-01 15:26:26.556438','register','Di registered (10,000 chips)');
INSERT INTO "seating_log" VALUES(6,1,'2026-12-01 15:26:26.567158','register','Ed registered (10,000 chips)');
INSERT INTO "seating_log" VALUES(7,1,'2026-12-01 15:26:26.577953','register','Flo registered (10,000 chips)');
INSERT INTO "seating_log" VALUES(8,1,'2026-12-01 15:26:26.589456','register','Gus registered (10,000 chips)');
INSERT INTO "seating_log" VALUES(9,1,'2026-12-01 15:26:26.600091','register','Hal registered (10,000 chips)');
INSERT INTO "seating_log" VALUES(10,1,'2026-12-01 15:26:26.611358','register','Ida registered (10,000 chips)');
INSERT INTO "seating_log" VALUES(11,1,'2026-12-01 15:26:26.631063','register','Jo registered (10,000 chips)');
INSERT INTO "seating_log" VALUES(12,1,'2026-12-01 15:26:26.675203','register','Kim registered (10,000 chips)');
INSERT INTO "seating_log" VALUES(13,1,'2026-12-01 15:26:26.699784','register','Lu registered (10,000 chips)');
INSERT INTO "seating_log" VALUES(14,1,'2026-12-01 15:26:26.719188','register','Max registered (10,000 chips)');
INSERT INTO "seating_log" VALUES(15,1,'2026-12-01 15:26:26.739427','register','Ned registered (10,000 chips)');
INSERT INTO "seating_log" VALUES(16,1,'2026-12-01 15:26:26.759186','register','Oda registered (10,000 chips)');
INSERT INTO "seating_log" VALUES(17,1,'2026-12-01 15:26:26.782901','register','Pia registered (10,000 chips)');
INSERT INTO "seating_log" VALUES(18,1,'2026-12-01 15:26:26.815036','draw','Seat draw: 16 players at 2 tables');
INSERT INTO "seating_log" VALUES(19,1,'2026-12-01 15:26:26.906870','house_rules','House rules: A big blind too short for both blind and big-blind ante pays: The ante first (BARGE 2020) (was The big blind first (TDA RP-11))');
INSERT INTO "seating_log" VALUES(20,1,'2026-12-01 15:26:26.906872','house_rules','House rules: Odd chips when several players split a pot: All to the first winner (pokerkit) (was One chip to each winner, clockwise from the button (RRP))');
INSERT INTO "seating_log" VALUES(21,1,'2026-12-01 15:26:26.967624','eliminate','Oda eliminated in place 16');
CREATE TABLE seating_plan (
	id INTEGER NOT NULL, 
	tournament_id INTEGER NOT NULL, 
	kind VARCHAR(20) NOT NULL, 
	"plan" JSON NOT NULL, 
	status VARCHAR(12) NOT NULL, 
	layout_before JSON NOT NULL, 
	layout_after JSON, 
	created_at DATETIME NOT NULL, 
	decided_at DATETIME, 
	PRIMARY KEY (id), 
	FOREIGN KEY(tournament_id) REFERENCES tournament (id) ON DELETE CASCADE
);
INSERT INTO "seating_plan" VALUES(1,1,'draw','{"kind": "draw", "moves": [{"player_id": 9, "name": "Ida", "from_table": null, "from_seat": null, "to_table": 1, "to_seat": 1, "note": "", "status": "dealt in now"}, {"player_id": 12, "name": "Lu", "from_table": null, "from_seat": null, "to_table": 1, "to_seat": 3, "note": "", "status": "dealt in now"}, {"player_id": 16, "name": "Pia", "from_table": null, "from_seat": null, "to_table": 1, "to_seat": 4, "note": "", "status": "dealt in now"}, {"player_id": 5, "name": "Ed", "from_table": null, "from_seat": null, "to_table": 1, "to_seat": 5, "note": "", "status": "dealt in now"}, {"player_id": 7, "name": "Gus", "from_table": null, "from_seat": null, "to_table": 1, "to_seat": 6, "note": "", "status": "dealt in now"}, {"player_id": 6, "name": "Flo", "from_table": null, "from_seat": null, "to_table": 1, "to_seat": 7, "note": "", "status": "dealt in now"}, {"player_id": 4, "name": "Di", "from_table": null, "from_seat": null, "to_table": 1, "to_seat": 8, "note": "", "status": "dealt in now"}, {"player_id": 10, "name": "Jo", "from_table": null, "from_seat": null, "to_table": 1, "to_seat": 9, "note": "", "status": "dealt in now"}, {"player_id": 13, "name": "Max", "from_table": null, "from_seat": null, "to_table": 2, "to_seat": 2, "note": "", "status": "dealt in now"}, {"player_id": 1, "name": "Ann", "from_table": null, "from_seat": null, "to_table": 2, "to_seat": 3, "note": "", "status": "dealt in now"}, {"player_id": 15, "name": "Oda", "from_table": null, "from_seat": null, "to_table": 2, "to_seat": 4, "note": "", "status": "dealt in now"}, {"player_id": 14, "name": "Ned", "from_table": null, "from_seat": null, "to_table": 2, "to_seat": 5, "note": "", "status": "dealt in now"}, {"player_id": 2, "name": "Bo", "from_table": null, "from_seat": null, "to_table": 2, "to_seat": 6, "note": "", "status": "dealt in now"}, {"player_id": 8, "name": "Hal", "from_table": null, "from_seat": null, "to_table": 2, "to_seat": 7, "note": "", "status": "dealt in now"}, {"player_id": 11, "name": "Kim", "from_table": null, "from_seat": null, "to_table": 2, "to_seat": 8, "note": "", "status": "dealt in now"}, {"player_id": 3, "name": "Cy", "from_table": null, "from_seat": null, "to_table": 2, "to_seat": 9, "note": "", "status": "dealt in now"}], "open_tables": {"1": 9, "2": 9}, "close_tables": [], "buttons": {"1": 3, "2": 3}, "note": "Seat draw: 16 players at 2 tables", "floor_notes": [], "stud": false}','confirmed','{"tables": []}','{"tables": [{"number": 1, "size": 9, "seats": [{"seat": 1, "player_id": 9, "name": "Ida", "waiting": false}, {"seat": 3, "player_id": 12, "name": "Lu", "waiting": false}, {"seat": 4, "player_id": 16, "name": "Pia", "waiting": false}, {"seat": 5, "player_id": 5, "name": "Ed", "waiting": false}, {"seat": 6, "player_id": 7, "name": "Gus", "waiting": false}, {"seat": 7, "player_id": 6, "name": "Flo", "waiting": false}, {"seat": 8, "player_id": 4, "name": "Di", "waiting": false}, {"seat": 9, "player_id": 10, "name": "Jo", "waiting": false}], "button_seat": 1, "sb_seat": 3, "bb_seat": 4, "game_is_stud": false, "vacated": []}, {"number": 2, "size": 9, "seats": [{"seat": 2, "player_id": 13, "name": "Max", "waiting": false}, {"seat": 3, "player_id": 1, "name": "Ann", "waiting": false}, {"seat": 4, "player_id": 15, "name": "Oda", "waiting": false}, {"seat": 5, "player_id": 14, "name": "Ned", "waiting": false}, {"seat": 6, "player_id": 2, "name": "Bo", "waiting": false}, {"seat": 7, "player_id": 8, "name": "Hal", "waiting": false}, {"seat": 8, "player_id": 11, "name": "Kim", "waiting": false}, {"seat": 9, "player_id": 3, "name": "Cy", "waiting": false}], "button_seat": 2, "sb_seat": 3, "bb_seat": 4, "game_is_stud": false, "vacated": []}]}','2026-12-01 15:26:26.814142','2026-12-01 15:26:26.806394');
CREATE TABLE seating_settings (
	tournament_id INTEGER NOT NULL, 
	policy JSON NOT NULL, 
	hand_for_hand JSON NOT NULL, 
	starting_chips BIGINT NOT NULL, 
	updated_at DATETIME NOT NULL, 
	version INTEGER NOT NULL, 
	PRIMARY KEY (tournament_id), 
	FOREIGN KEY(tournament_id) REFERENCES tournament (id) ON DELETE CASCADE
);
INSERT INTO "seating_settings" VALUES(1,'{"table_size": 9, "balance_threshold": 1, "halt_short_by": 3, "final_table_size": null, "redraw_at_tables": [3, 2, 1], "breaking_order": [], "hand_for_hand_seconds": 120, "stud_only": false, "smallest_chip": 0}','{"on": false, "announced": false, "hands_played": 0, "since": null, "busts": []}',10000,'2026-12-01 15:26:26.967495',38);
CREATE TABLE seating_table (
	id INTEGER NOT NULL, 
	tournament_id INTEGER NOT NULL, 
	number INTEGER NOT NULL, 
	size INTEGER NOT NULL, 
	button_seat INTEGER, 
	sb_seat INTEGER, 
	bb_seat INTEGER, 
	game_is_stud BOOLEAN NOT NULL, 
	vacated JSON NOT NULL, 
	break_position INTEGER NOT NULL, 
	halted BOOLEAN NOT NULL, 
	PRIMARY KEY (id), 
	UNIQUE (tournament_id, number), 
	FOREIGN KEY(tournament_id) REFERENCES tournament (id) ON DELETE CASCADE
);
INSERT INTO "seating_table" VALUES(1,1,1,9,5,6,7,0,'[]',2,0);
INSERT INTO "seating_table" VALUES(2,1,2,9,2,3,4,0,'[4]',1,0);
CREATE TABLE tournament (
	id INTEGER NOT NULL, 
	name VARCHAR(100) NOT NULL, 
	created_at DATETIME NOT NULL, 
	levels JSON NOT NULL, 
	level_index INTEGER NOT NULL, 
	started_at DATETIME, 
	elapsed_before FLOAT NOT NULL, 
	running BOOLEAN NOT NULL, 
	language VARCHAR(8), 
	version INTEGER NOT NULL, 
	PRIMARY KEY (id)
);
INSERT INTO "tournament" VALUES(1,'Thursday PLO','2026-12-01 15:26:26.424117','[{"kind": "level", "duration_seconds": 1200, "game": "PO", "small_blind": 100, "big_blind": 200, "ante": 0, "big_blind_ante": false, "small_bet": 0, "big_bet": 0, "bring_in": 0, "note": ""}, {"kind": "level", "duration_seconds": 1200, "game": "PO", "small_blind": 200, "big_blind": 400, "ante": 0, "big_blind_ante": false, "small_bet": 0, "big_bet": 0, "bring_in": 0, "note": ""}, {"kind": "break", "duration_seconds": 600, "game": null, "small_blind": 0, "big_blind": 0, "ante": 0, "big_blind_ante": false, "small_bet": 0, "big_bet": 0, "bring_in": 0, "note": "Colour up"}, {"kind": "level", "duration_seconds": 1200, "game": "PO", "small_blind": 300, "big_blind": 600, "ante": 600, "big_blind_ante": false, "small_bet": 0, "big_bet": 0, "bring_in": 0, "note": ""}]',1,'2026-12-01 15:26:26.948037',0.0,1,NULL,3);
CREATE INDEX ix_audit_log_at ON audit_log (at);
CREATE INDEX ix_dealer_hand_table_id ON dealer_hand (table_id);
CREATE INDEX ix_dealer_hand_tournament_id ON dealer_hand (tournament_id);
CREATE INDEX ix_dealer_device_tournament_id ON dealer_device (tournament_id);
CREATE INDEX ix_dealer_device_table_id ON dealer_device (table_id);
CREATE INDEX ix_dealer_pairing_tournament_id ON dealer_pairing (tournament_id);
CREATE INDEX ix_player_tournament_id ON player (tournament_id);
CREATE INDEX ix_seating_table_tournament_id ON seating_table (tournament_id);
CREATE INDEX ix_seating_plan_tournament_id ON seating_plan (tournament_id);
CREATE INDEX ix_seating_log_tournament_id ON seating_log (tournament_id);
CREATE INDEX ix_dealer_hand_event_hand_id ON dealer_hand_event (hand_id);
CREATE INDEX ix_dealer_hand_log_hand_id ON dealer_hand_log (hand_id);
CREATE INDEX ix_payment_person ON payment (person);
CREATE INDEX ix_payment_tournament_id ON payment (tournament_id);
CREATE INDEX ix_payment_player_id ON payment (player_id);
CREATE INDEX ix_seat_tournament_id ON seat (tournament_id);
COMMIT;
