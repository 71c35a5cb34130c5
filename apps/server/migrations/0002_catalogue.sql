-- The app catalogue of spec §1 and §6, with every tile. Client ids of the spec where it names them.

INSERT INTO apps (client_id, name, rights_section, sort_order) VALUES
  ('partner-portal',      'Partner Portal',           'partner_portal',      0),
  ('loyalty-app',         'Loyalty & Trade-in',       'loyalty',             10),
  ('subscriptions-app',   'Subscription management',  'subscription',        20),
  ('product-information', 'Product information',      'product_information', 30),
  ('freshdesk',           'Support center',           'support_center',      40),
  ('media-library',       'Media library',            'media_library',       50),
  ('learnspace',          'Academy',                  'academy',             60),
  ('profit_calculator',   'Profit Calculator',        'profit_calculator',   70),
  ('control-tower-app',   'Control Tower',            'control_tower',       80),
  ('ordering-tools-app',  'Ordering Tools',           'ordering_tools',      90);

INSERT INTO tiles (id, client_id, required_right, name, description_i18n_key, uri, icon, coming_soon, router_path, sort_order) VALUES
  ('remote-support',         NULL,                  NULL,                                          'Remote support',              'tile_remote_support_description',         'https://support.example.com/remote',          'headset',        false, NULL, 10),
  ('product-catalogue',      'product-information', NULL,                                          'Product catalogue',           'tile_product_catalogue_description',      'https://products.example.com/',               'book',           false, NULL, 20),
  ('academy',                'learnspace',          NULL,                                          'Academy',                     'tile_academy_description',                'https://academy.example.com/',                'school',         false, NULL, 30),
  ('media-library',          'media-library',       NULL,                                          'Media library',               'tile_media_library_description',          'https://media.example.com/',                  'photo',          false, NULL, 40),
  ('licence-management',     'subscriptions-app',   NULL,                                          'Licence management',          'tile_licence_management_description',     'https://subscriptions.example.com/licences',  'license',        false, NULL, 50),
  ('ordering-tool',          'ordering-tools-app',  NULL,                                          'Ordering tool',               'tile_ordering_tool_description',          'https://ordering.example.com/',                'shopping-cart',  false, NULL, 60),
  ('profit-calculator',      'profit_calculator',   NULL,                                          'Farmer profit calculator',    'tile_profit_calculator_description',      'https://profit.example.com/',                  'calculator',     false, NULL, 70),
  ('tag-replacement',        'loyalty-app',         NULL,                                          'Tag replacement',             'tile_tag_replacement_description',        'https://loyalty.example.com/tag-replacement',  'tag',            false, NULL, 80),
  ('tag-usage',              'subscriptions-app',   NULL,                                          'Tag usage monitoring',        'tile_tag_usage_description',              'https://subscriptions.example.com/usage',     'chart-bar',      false, NULL, 90),
  ('business-partners',      'loyalty-app',         'nedap_user_business_partner_manager',         'Business partners',           'tile_business_partners_description',      'https://loyalty.example.com/business-partners','building-store', false, NULL, 100),
  ('article-management',     'ordering-tools-app',  'nedap_user_manage_articles_and_license_items','Articles and licence items',  'tile_article_management_description',     'https://ordering.example.com/articles',       'package',        false, NULL, 110),
  ('request-management',     'loyalty-app',         'user_request_manager',                        'Request management',          'tile_request_management_description',     'https://loyalty.example.com/requests',        'inbox',          false, NULL, 120),
  ('import-products',        'product-information', 'user_import_products_from_airtable',          'Import products',             'tile_import_products_description',        'https://products.example.com/import',         'table-import',   false, NULL, 130),
  ('import-order-references','ordering-tools-app',  'nedap_user_import_order_references',          'Import order references',     'tile_import_order_references_description','https://ordering.example.com/import',         'file-import',    false, NULL, 140),
  ('support-center',         'freshdesk',           NULL,                                          'Support center',              'tile_support_center_description',         'https://support.example.com/',                'lifebuoy',       false, NULL, 150),
  ('control-tower',          'control-tower-app',   NULL,                                          'Control Tower',               'tile_control_tower_description',          'https://control-tower.example.com/',          'radar',          true,  NULL, 160);

INSERT INTO features (name, enabled) VALUES
  ('control_tower_enabled', false),
  ('control_tower_enabled_for_non_nedap_users', false),
  ('ordering_tools_enabled', true),
  ('ordering_tools_enabled_for_non_nedap_users', true);
