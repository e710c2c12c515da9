/**
 * blade_user.status values (dictionary user_status): 1 active, 0 disabled, 2 pending — an account registered by
 * a guest (register-guest) that waits, without roles, until an administrator grants it roles (user/grant).
 */
export const USER_ACTIVE = 1;
export const USER_DISABLED = 0;
export const USER_PENDING = 2;
